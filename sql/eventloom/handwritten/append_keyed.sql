-- Appends a batch like append.sql and records its idempotency key ($9, request digest $10) in
-- the same statement. stored is false on every row when another request already holds the key
-- (the caller then undoes the append and answers from the existing record).
WITH appended AS (
  INSERT INTO events (space_id, type, session_id, actor, occurred_at, content, data, cues)
  SELECT $1, t.type, t.session_id, t.actor, t.occurred_at, t.content, t.data::jsonb, t.cues::jsonb
  FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[])
    WITH ORDINALITY AS t (type, session_id, actor, occurred_at, content, data, cues, ord)
  ORDER BY t.ord
  RETURNING seq, hash, prev_hash, recorded_at, occurred_at
), recorded AS (
  INSERT INTO idempotency_keys (space_id, key, request_hash, first_seq, last_seq)
  SELECT $1, $9, $10, min(a.seq), max(a.seq) FROM appended a
  ON CONFLICT (space_id, key) DO NOTHING
  RETURNING true
)
SELECT a.seq, a.hash, a.prev_hash, a.recorded_at, a.occurred_at, EXISTS (SELECT FROM recorded) AS stored
FROM appended a
ORDER BY a.seq
