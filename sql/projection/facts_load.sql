-- The facts a batch may change: current versions of the touched (subject, predicate) pairs,
-- current facts asserted by invalidated events, and facts named by id. Three index scans
-- joined with UNION (an OR across them would scan the space's facts).
SELECT fact_id, subject_id, predicate, object_id, value::text, version, valid_from, valid_to,
       recorded_seq, recorded_hash, closed_seq, status, superseded_by, authority, inferred,
       confidence, evidence::text, close_reason
FROM facts f
WHERE f.space_id = $1 AND f.fact_id IN (
  SELECT c.fact_id FROM facts c
  JOIN unnest($2::text[], $3::text[]) AS p (subject_id, predicate)
    ON c.space_id = $1 AND c.subject_id = p.subject_id AND c.predicate = p.predicate AND c.status = 'current'
  UNION
  SELECT c.fact_id FROM facts c
  WHERE c.space_id = $1 AND c.status = 'current' AND c.recorded_seq = ANY ($4::bigint[])
  UNION
  SELECT unnest($5::text[])
)
