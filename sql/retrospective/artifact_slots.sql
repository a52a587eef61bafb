-- name: ArtifactSlots :many
-- The current artifacts among @ids with their slots and source seqs (what a confidence
-- revision names beside the id) and the confidence the memory actions rank them by now: the
-- latest confidence revision that applies (zaxy_confidence_revision_seq, migration 000038), else
-- the producer's. An id that is stale or gone has no row (a revision of it would steer
-- nothing).
SELECT c.artifact_id, c.slot, c.source_seqs,
       coalesce(r.confidence, c.confidence::float8)::float8 AS confidence
FROM latent_current c
LEFT JOIN LATERAL (
  SELECT (e.data->>'confidence')::float8 AS confidence, e.seq, e.hash
  FROM events e
  WHERE e.space_id = @space_id AND e.seq = zaxy_confidence_revision_seq(@space_id, c.artifact_id, c.slot, c.source_seqs)
) r ON true
WHERE c.space_id = @space_id AND c.artifact_id = ANY (@ids::text[])
ORDER BY c.artifact_id;
