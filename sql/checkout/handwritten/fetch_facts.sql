-- Fact versions by id, and the versions they superseded (so a change is never silently
-- dropped), with names and citations; rows are graph.FactRow (and asked).
SELECT f.fact_id, s.name AS subject_name, f.predicate, o.name AS object_name, f.value::text AS value, f.version,
       f.status, f.superseded_by, f.valid_from, f.valid_to, f.recorded_seq, f.recorded_hash, f.evidence::text AS evidence, f.authority,
       f.review_status, f.inferred, f.close_reason, f.fact_id = ANY ($2::text[]) AS asked
FROM facts f
JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
WHERE f.space_id = $1 AND (f.fact_id = ANY ($2::text[]) OR f.superseded_by = ANY ($2::text[]))
