-- Inserts a batch of exported idempotency records of space $1 as they were.
INSERT INTO idempotency_keys (space_id, key, request_hash, first_seq, last_seq, created_at)
SELECT $1, t.key, t.request_hash, t.first_seq, t.last_seq, t.created_at
FROM unnest($2::text[], $3::bytea[], $4::bigint[], $5::bigint[], $6::timestamptz[])
  AS t (key, request_hash, first_seq, last_seq, created_at)
