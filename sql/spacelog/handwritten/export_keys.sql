-- The space's idempotency records whose events are in the export (last_seq up to the chain head
-- $2), in the order of their first event.
SELECT key, request_hash, first_seq, last_seq, created_at
FROM idempotency_keys
WHERE space_id = $1 AND last_seq <= $2
ORDER BY first_seq, key
