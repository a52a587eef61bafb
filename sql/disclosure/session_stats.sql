-- name: SessionStats :one
-- How many events session $2 of space $1 holds (bookkeeping left out), and their seq range.
SELECT count(*) AS total, coalesce(min(e.seq), 0)::bigint AS first_seq, coalesce(max(e.seq), 0)::bigint AS last_seq
FROM events e
WHERE e.space_id = @space_id AND e.session_id = @session_id AND e.session_id <> ''
  AND NOT starts_with(e.type, 'checkout.') AND NOT starts_with(e.type, 'zaxy.');
