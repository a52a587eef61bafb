-- name: AppendKeyed :many
-- Appends a batch like append.sql and records its idempotency key (request digest
-- request_hash) in the same statement. Each array is one column of the events, all of one
-- length, in append order; sqlc cannot type an array's NULL elements, so occurred_at, data and
-- cues come with a flag saying whether they are set. The events_link trigger assigns seq,
-- recorded_at, prev_hash and hash; a NULL occurred_at becomes recorded_at. stored is false on
-- every row when another request already holds the key (the caller then undoes the append and
-- answers from the existing record).
WITH t AS (
  SELECT unnest(@types::text[]) AS type,
         unnest(@session_ids::text[]) AS session_id,
         unnest(@actors::text[]) AS actor,
         unnest(@occurred_ats::timestamptz[]) AS occurred_at,
         unnest(@occurred_at_set::boolean[]) AS occurred_at_set,
         unnest(@contents::text[]) AS content,
         unnest(@datas::text[]) AS data,
         unnest(@data_set::boolean[]) AS data_set,
         unnest(@cues::text[]) AS cues,
         unnest(@cues_set::boolean[]) AS cues_set,
         generate_series(1, cardinality(@types::text[])) AS ord
), appended AS (
  INSERT INTO events (space_id, type, session_id, actor, occurred_at, content, data, cues)
  SELECT @space_id::text, t.type, t.session_id, t.actor, CASE WHEN t.occurred_at_set THEN t.occurred_at END,
         t.content, CASE WHEN t.data_set THEN t.data::jsonb END, CASE WHEN t.cues_set THEN t.cues::jsonb END
  FROM t
  ORDER BY t.ord
  RETURNING seq, hash, prev_hash, recorded_at, occurred_at
), recorded AS (
  INSERT INTO idempotency_keys (space_id, key, request_hash, first_seq, last_seq)
  SELECT @space_id::text, @key::text, @request_hash::bytea, min(a.seq), max(a.seq) FROM appended a
  ON CONFLICT (space_id, key) DO NOTHING
  RETURNING true
)
SELECT a.seq, a.hash, a.prev_hash, a.recorded_at, a.occurred_at, EXISTS (SELECT FROM recorded) AS stored
FROM appended a
ORDER BY a.seq;
