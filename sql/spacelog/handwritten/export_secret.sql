-- The space's secret (space_secrets), which keys its derived idempotency keys.
SELECT secret, created_at
FROM space_secrets
WHERE space_id = $1
