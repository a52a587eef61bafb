-- name: LookupToken :one
-- The live token with this hash.
SELECT token_id, scope, spaces FROM api_tokens WHERE hash = @hash AND revoked_at IS NULL;
