-- name: FactsLoad :many
-- The facts a batch may change: current versions of the touched (subject, predicate) pairs
-- (subject_ids and predicates, of one length), current facts asserted by invalidated events
-- (seqs), and facts named by id (fact_ids). Each part is an index lookup per key (LATERAL ...
-- LIMIT), so the plan stays right while a rebuild's transaction fills tables whose statistics
-- are stale.
WITH ids AS (
  SELECT c.fact_id
  FROM (SELECT unnest(@subject_ids::text[]) AS subject_id, unnest(@predicates::text[]) AS predicate) p
  CROSS JOIN LATERAL (
    SELECT fact_id FROM facts
    WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND subject_id = p.subject_id AND predicate = p.predicate AND status = 'current'
    LIMIT 1
  ) c
  UNION
  SELECT c.fact_id
  FROM unnest(@seqs::bigint[]) AS t (seq)
  CROSS JOIN LATERAL (
    SELECT fact_id FROM facts WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND recorded_seq = t.seq AND status = 'current'
  ) c
  UNION
  SELECT unnest(@fact_ids::text[])
)
SELECT f.fact_id, f.subject_id, f.predicate, f.object_id, f.value, f.version, f.valid_from,
       f.valid_to, f.recorded_seq, f.recorded_hash, f.closed_seq, f.status, f.superseded_by,
       f.authority, f.review_status, f.inferred, f.confidence, f.evidence::text AS evidence, f.close_reason
FROM ids
CROSS JOIN LATERAL (SELECT * FROM facts WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND fact_id = ids.fact_id) f;
