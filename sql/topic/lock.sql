-- name: Lock :exec
-- Serializes model writes of one space (transaction-scoped).
SELECT pg_advisory_xact_lock(hashtextextended('zaxy.latent:' || @space_id::text, 0));
