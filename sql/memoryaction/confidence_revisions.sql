-- name: ConfidenceRevisions :many
-- The latest memory.confidence_revised event that is not erased of each artifact among @ids
-- (index events_confidence_revisions, migration 000035: one probe per id, however many
-- revisions the space holds): the confidence the memory actions rank that artifact by.
SELECT k.artifact_id::text AS artifact_id, r.confidence, r.seq, r.hash
FROM unnest(@ids::text[]) AS k(artifact_id)
CROSS JOIN LATERAL (
  SELECT (e.data->>'confidence')::float8 AS confidence, e.seq, e.hash
  FROM events e
  WHERE e.space_id = @space_id AND e.type = 'memory.confidence_revised' AND e.erased_by_seq IS NULL
    AND e.data->'artifact'->>'id' = k.artifact_id
  ORDER BY e.seq DESC
  LIMIT 1
) r
ORDER BY k.artifact_id;
