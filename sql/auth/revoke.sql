-- name: RevokeToken :execrows
-- Revokes a token; revoking twice keeps the first time.
UPDATE api_tokens SET revoked_at = coalesce(revoked_at, clock_timestamp()) WHERE token_id = @token_id;
