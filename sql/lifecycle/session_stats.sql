-- name: SessionStats :many
-- Events of a session by type, with the first and last seq and time, bookkeeping skipped
-- (through the partial index of the sessions' memory events, migration 000027).
SELECT type, count(*) AS events, min(seq)::bigint AS first_seq, max(seq)::bigint AS last_seq,
       min(occurred_at)::timestamptz AS first_at, max(occurred_at)::timestamptz AS last_at
FROM events
WHERE space_id = @space_id AND session_id = @session_id AND session_id <> ''
  AND type NOT LIKE 'checkout.%' AND type NOT LIKE 'zaxy.%'
GROUP BY type
ORDER BY type;
