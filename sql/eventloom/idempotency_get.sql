-- name: IdempotencyGet :one
-- The original request digest and seq range recorded for an idempotency key.
SELECT request_hash, first_seq, last_seq
FROM idempotency_keys
WHERE space_id = $1 AND key = $2;
