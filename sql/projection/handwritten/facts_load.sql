-- The facts a batch may change: current versions of the touched (subject, predicate) pairs,
-- current facts asserted by invalidated events, and facts named by id. Each part is an index
-- lookup per key (LATERAL ... LIMIT), so the plan stays right while a rebuild's transaction
-- fills tables whose statistics are stale.
WITH ids AS (
  SELECT c.fact_id
  FROM unnest($2::text[], $3::text[]) AS p (subject_id, predicate)
  CROSS JOIN LATERAL (
    SELECT fact_id FROM facts
    WHERE space_id = $1 AND subject_id = p.subject_id AND predicate = p.predicate AND status = 'current'
    LIMIT 1
  ) c
  UNION
  SELECT c.fact_id
  FROM unnest($4::bigint[]) AS t (seq)
  CROSS JOIN LATERAL (
    SELECT fact_id FROM facts WHERE space_id = $1 AND recorded_seq = t.seq AND status = 'current'
  ) c
  UNION
  SELECT unnest($5::text[])
)
SELECT f.fact_id, f.subject_id, f.predicate, f.object_id, f.value::text AS value, f.version, f.valid_from,
       f.valid_to, f.recorded_seq, f.recorded_hash, f.closed_seq, f.status, f.superseded_by,
       f.authority, f.review_status, f.inferred, f.confidence, f.evidence::text AS evidence, f.close_reason
FROM ids
CROSS JOIN LATERAL (SELECT * FROM facts WHERE space_id = $1 AND fact_id = ids.fact_id) f
