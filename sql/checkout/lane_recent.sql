-- name: LaneRecent :many
-- Recent lane: the latest events of the session (@session_id; the whole space when empty) that had
-- occurred by @as_of, newest first, bookkeeping skipped.
SELECT e.seq
FROM events e
WHERE e.space_id = @space_id AND (@session_id::text = '' OR e.session_id = @session_id) AND e.occurred_at <= @as_of
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%'
ORDER BY e.seq DESC
LIMIT @max_rows;
