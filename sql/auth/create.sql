-- Stores a new token's hash, scope and spaces.
INSERT INTO api_tokens (token_id, hash, scope, spaces, label) VALUES ($1, $2, $3, $4, $5)
RETURNING created_at
