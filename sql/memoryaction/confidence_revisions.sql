-- name: ConfidenceRevisions :many
-- The latest confidence revision that applies to each artifact among @ids: one naming its id,
-- or its slot with the same sources (zaxy_confidence_revision_seq, migration 000038: a new producer
-- version re-addresses artifacts). An id no longer in latent_artifacts is looked up by id only.
-- The confidence the memory actions rank that artifact by.
SELECT k.artifact_id::text AS artifact_id, r.confidence, r.seq, r.hash
FROM unnest(@ids::text[]) AS k(artifact_id)
LEFT JOIN latent_artifacts a ON a.space_id = @space_id AND a.artifact_id = k.artifact_id
CROSS JOIN LATERAL (
  SELECT (e.data->>'confidence')::float8 AS confidence, e.seq, e.hash
  FROM events e
  WHERE e.space_id = @space_id AND e.seq = zaxy_confidence_revision_seq(@space_id, k.artifact_id, a.slot, a.source_seqs)
) r
ORDER BY k.artifact_id;
