-- name: ErasureLockShared :exec
-- The shared side of erasure_lock.sql: taken by a transaction storing data derived from text it read
-- earlier; it waits for an erasure of the space in progress to commit.
SELECT pg_advisory_xact_lock_shared(hashtextextended('zaxy.erase:' || @space_id::text, 0));
