-- name: IdempotencyMany :many
-- The idempotency records of many keys ($2) of one space, for callers that skip appends
-- already made (ingest re-checking thousands of unchanged documents in one round trip).
SELECT k.key, k.request_hash, k.first_seq, k.last_seq
FROM idempotency_keys k
WHERE k.space_id = $1 AND k.key = ANY(@keys::text[]);
