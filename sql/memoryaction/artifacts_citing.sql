-- name: ArtifactsCiting :many
-- A space's current artifacts of the given types that cite any of seqs (GIN index
-- latent_artifacts_sources), in id order.
SELECT artifact_id, slot, artifact_type, summary, source_event_refs::text AS source_event_refs, source_seqs,
       confidence, review_status, authority_status, purpose_profile, reasoning_phase,
       coalesce(payload, 'null')::text AS payload
FROM latent_current
WHERE space_id = @space_id AND artifact_type = ANY (@types::text[]) AND source_seqs && @seqs::bigint[]
ORDER BY artifact_id;
