-- name: EventInvalidations :many
-- The memory.invalidated events of space $1 that target event $2, oldest first.
SELECT i.seq, i.hash, i.reason
FROM invalidations i
WHERE i.space_id = @space_id AND i.target_seq = @seq
ORDER BY i.seq;
