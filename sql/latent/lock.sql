-- name: Lock :exec
-- Serializes artifact builds of one space (transaction-scoped).
SELECT pg_advisory_xact_lock(hashtextextended('zaxy.latent_artifacts:' || @space_id::text, 0));
