-- The live token with this hash.
SELECT token_id, scope, spaces FROM api_tokens WHERE hash = $1 AND revoked_at IS NULL
