-- The facts a batch may change: current versions of the touched (subject, predicate) pairs,
-- current facts asserted by invalidated events, and facts named by id.
SELECT fact_id, subject_id, predicate, object_id, value::text, version, valid_from, valid_to,
       recorded_seq, recorded_hash, closed_seq, status, superseded_by, authority, inferred,
       confidence, evidence::text, close_reason
FROM facts f
WHERE f.space_id = $1
  AND ((f.status = 'current'
        AND (f.subject_id, f.predicate) IN (SELECT * FROM unnest($2::text[], $3::text[])))
    OR (f.status = 'current' AND f.recorded_seq = ANY ($4::bigint[]))
    OR f.fact_id = ANY ($5::text[]))
