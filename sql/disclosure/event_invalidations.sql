-- name: EventInvalidations :many
-- The memory.invalidated events of space $1 that target event $2, oldest first, but those erased
-- whose purge is pending (zaxy_erased_pending, migration 000054).
SELECT i.seq, i.hash, i.reason
FROM invalidations i
WHERE i.space_id = @space_id AND i.target_seq = @seq AND i.seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY i.seq;
