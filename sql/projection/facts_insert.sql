-- name: FactsInsert :exec
-- Inserts the fact versions a batch opened (in their final state). Each array is one column of
-- the rows, all of one length; unnest in the select list zips them in order. sqlc cannot type
-- an array's NULL elements, so a NULL travels as a value no fact holds: the empty string for an id
-- or a JSON value (ids and canonical JSON are never empty), 0 for a seq (seqs start at 1), NaN for a
-- confidence (JSON has no NaN); valid_to and close_reason, which any value can fill, come with
-- a flag saying whether they are set. With age, each row gets its graph ids (age_edge, and
-- age_value_node for a value) as it is inserted (zaxy_age_ids), so the graph sync does not
-- write the row again.
WITH u AS (
  SELECT unnest(@fact_ids::text[]) AS fact_id,
         unnest(@subject_ids::text[]) AS subject_id,
         unnest(@predicates::text[]) AS predicate,
         unnest(@object_ids::text[]) AS object_id,
         unnest(@fact_values::text[]) AS value,
         unnest(@versions::int[]) AS version,
         unnest(@valid_froms::timestamptz[]) AS valid_from,
         unnest(@valid_tos::timestamptz[]) AS valid_to,
         unnest(@valid_to_set::boolean[]) AS valid_to_set,
         unnest(@recorded_seqs::bigint[]) AS recorded_seq,
         unnest(@recorded_hashes::bytea[]) AS recorded_hash,
         unnest(@closed_seqs::bigint[]) AS closed_seq,
         unnest(@statuses::text[]) AS status,
         unnest(@superseded_bys::text[]) AS superseded_by,
         unnest(@authorities::text[]) AS authority,
         unnest(@inferred::boolean[]) AS inferred,
         unnest(@confidences::float8[]) AS confidence,
         unnest(@evidence::text[]) AS evidence,
         unnest(@close_reasons::text[]) AS close_reason,
         unnest(@close_reason_set::boolean[]) AS close_reason_set,
         unnest(@review_statuses::text[]) AS review_status
), n AS (
  SELECT u.fact_id, row_number() OVER (ORDER BY u.fact_id) AS i,
         CASE WHEN u.value <> '' THEN count(*) FILTER (WHERE u.value <> '') OVER (ORDER BY u.fact_id) END AS vi
  FROM u WHERE @age::boolean
), ids AS (
  SELECT zaxy_age_ids(@space_id::text, 'FACT', count(*)::int) AS edges,
         zaxy_age_ids(@space_id::text, 'Value', (count(*) FILTER (WHERE n.vi IS NOT NULL))::int) AS nodes
  FROM n
)
INSERT INTO facts (space_key, fact_id, subject_id, predicate, object_id, value, version, valid_from,
                   valid_to, recorded_seq, recorded_hash, closed_seq, status, superseded_by,
                   authority, inferred, confidence, evidence, close_reason, review_status,
                   age_edge, age_value_node)
SELECT (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text), u.fact_id, u.subject_id, u.predicate, nullif(u.object_id, ''), nullif(u.value, '')::jsonb,
       u.version, u.valid_from, CASE WHEN u.valid_to_set THEN u.valid_to END, u.recorded_seq, u.recorded_hash,
       nullif(u.closed_seq, 0), u.status, nullif(u.superseded_by, ''), u.authority, u.inferred,
       nullif(u.confidence, 'NaN')::real, u.evidence::jsonb, CASE WHEN u.close_reason_set THEN u.close_reason END,
       u.review_status, ids.edges[n.i], ids.nodes[n.vi]
FROM u CROSS JOIN ids LEFT JOIN n ON n.fact_id = u.fact_id;
