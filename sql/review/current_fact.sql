-- name: CurrentFact :one
-- The current asserted fact of (subject, predicate), the subject named by the id of its entity
-- key (graph.EntityID), with its object's key or its value rendered as text (interference
-- detection compares them).
SELECT f.fact_id, f.authority, coalesce(o.key, lower(regexp_replace(btrim(f.value #>> '{}'), '\s+', ' ', 'g')))::text AS target
FROM entities s
JOIN facts f ON f.space_key = s.space_key AND f.subject_id = s.entity_id AND f.predicate = @predicate AND f.status = 'current'
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
WHERE s.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND s.entity_id = @subject_id;
