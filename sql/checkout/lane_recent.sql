-- name: LaneRecent :many
-- Recent lane: the latest events of the session @session_id (never empty: without a session the
-- lane does not run) that had occurred by @as_of, newest first, bookkeeping skipped, through the
-- partial index of the sessions' memory events (migration 000027: its predicate is the
-- conditions on session_id and type below, so no bookkeeping row is ever walked).
SELECT e.seq
FROM events e
WHERE e.space_id = @space_id AND e.session_id = @session_id AND e.session_id <> ''
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%'
  AND e.occurred_at <= @as_of
ORDER BY e.seq DESC
LIMIT @max_rows;
