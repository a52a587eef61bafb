-- name: ErasureLock :exec
-- An erasure's exclusive lock on its space (transaction-scoped). Writers of derived data that
-- read the text outside their writing transaction (embedder, inferrer, latent model) take it
-- shared (erasure_lock_shared.sql) and look again before they write, so nothing read before an
-- erasure is stored after it.
SELECT pg_advisory_xact_lock(hashtextextended('zaxy.erase:' || @space_id::text, 0));
