-- Stores the exported secret of space $1. The space has no events yet, so no idempotency record
-- was keyed by a secret it may already have (created by a request that appended nothing).
INSERT INTO space_secrets (space_id, secret, created_at) VALUES ($1, $2, $3)
ON CONFLICT (space_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = EXCLUDED.created_at
