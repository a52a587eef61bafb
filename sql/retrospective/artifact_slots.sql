-- name: ArtifactSlots :many
-- The current artifacts among @ids with their slots (what a confidence revision names beside
-- the id) and the confidence the memory actions rank them by now: the latest
-- memory.confidence_revised of the id that is not erased (index events_confidence_revisions), else
-- the producer's. An id that is stale or gone has no row (a revision of it would steer
-- nothing).
SELECT c.artifact_id, c.slot,
       coalesce((SELECT (e.data->>'confidence')::float8 FROM events e
                 WHERE e.space_id = @space_id AND e.type = 'memory.confidence_revised' AND e.erased_by_seq IS NULL
                   AND e.data->'artifact'->>'id' = c.artifact_id
                 ORDER BY e.seq DESC LIMIT 1), c.confidence::float8)::float8 AS confidence
FROM latent_current c
WHERE c.space_id = @space_id AND c.artifact_id = ANY (@ids::text[])
ORDER BY c.artifact_id;
