-- name: ListTokens :many
-- Every token, without secrets.
SELECT token_id, scope, spaces, label, created_at, revoked_at FROM api_tokens ORDER BY created_at, token_id;
