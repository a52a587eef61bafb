-- name: CreateToken :one
-- Stores a new token's hash, scope and spaces.
INSERT INTO api_tokens (token_id, hash, scope, spaces, label) VALUES (@token_id, @hash, @scope, @spaces, @label)
RETURNING created_at;
