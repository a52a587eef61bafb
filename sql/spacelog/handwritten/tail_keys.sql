-- The idempotency records of a space whose events are after seq $2 and up to its chain head $3.
SELECT key, request_hash, first_seq, last_seq, created_at
FROM idempotency_keys
WHERE space_id = $1 AND first_seq > $2 AND last_seq <= $3
ORDER BY first_seq, key
