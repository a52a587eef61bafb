-- name: ConfidenceRevisions :many
-- The latest memory.confidence_revised event of each artifact of a space that is not erased
-- (index events_memory_actions): the confidence the memory actions rank that artifact by.
SELECT DISTINCT ON (e.data->'artifact'->>'id')
       (e.data->'artifact'->>'id')::text AS artifact_id, (e.data->>'confidence')::float8 AS confidence,
       e.seq, e.hash
FROM events e
WHERE e.space_id = @space_id AND e.type = 'memory.confidence_revised' AND e.erased_by_seq IS NULL
ORDER BY e.data->'artifact'->>'id', e.seq DESC;
