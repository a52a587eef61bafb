-- name: CurrentFact :one
-- The current asserted fact of (subject, predicate), the subject named by the id of its entity
-- key (graph.EntityID), with its object's key or its value rendered as text (interference
-- detection compares them).
SELECT f.fact_id, f.authority, coalesce(o.key, lower(regexp_replace(btrim(f.value #>> '{}'), '\s+', ' ', 'g')))::text AS target
FROM entities s
JOIN facts f ON f.space_id = s.space_id AND f.subject_id = s.entity_id AND f.predicate = @predicate AND f.status = 'current'
LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
WHERE s.space_id = @space_id AND s.entity_id = @subject_id;
