-- Records an idempotency key; returns no row when another request already holds it (the
-- caller then rolls its append back and answers from the existing row).
INSERT INTO idempotency_keys (space_id, key, request_hash, first_seq, last_seq)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (space_id, key) DO NOTHING
RETURNING true
