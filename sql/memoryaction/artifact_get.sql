-- name: ArtifactGet :one
-- One current artifact of a space by id (stale artifacts are not found).
SELECT artifact_id, slot, artifact_type, summary, source_event_refs::text AS source_event_refs, source_seqs,
       confidence, review_status, authority_status, purpose_profile, reasoning_phase,
       coalesce(payload, 'null')::text AS payload
FROM latent_current
WHERE space_id = @space_id AND artifact_id = @artifact_id;
