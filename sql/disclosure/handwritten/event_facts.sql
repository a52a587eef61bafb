-- The fact versions event $2 of space $1 recorded (opened), in the order it asserted them.
-- Fact versions recorded by an erased event whose purge is pending (zaxy_erased_pending,
-- migration 000054) are left out.
SELECT f.fact_id, f.subject_id, s.name AS subject_name, f.predicate, f.object_id, o.name AS object_name,
       f.value::text AS value, f.version, f.valid_from, f.valid_to, f.recorded_seq, f.recorded_hash, f.closed_seq,
       f.status, f.superseded_by, f.authority, f.review_status, f.inferred, f.confidence,
       f.evidence::text AS evidence, f.close_reason
FROM facts f
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.recorded_seq = $2 AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
ORDER BY s.name, f.predicate, f.version, f.fact_id
