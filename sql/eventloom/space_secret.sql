-- name: SpaceSecret :one
-- The space's secret (space_secrets), created as @secret when the space has none yet. No row
-- when another transaction created it after this statement's snapshot was taken (the caller
-- reads it again).
WITH created AS (
  INSERT INTO space_secrets (space_id, secret) VALUES (@space_id, @secret)
  ON CONFLICT (space_id) DO NOTHING
  RETURNING secret
)
SELECT secret FROM created
UNION ALL
SELECT s.secret FROM space_secrets s WHERE s.space_id = @space_id
LIMIT 1;
