-- name: Artifacts :many
-- A space's artifacts in slot and id order.
SELECT artifact_id, slot, artifact_type, summary, source_seqs, confidence, review_status, stale_seq, stale_reason, supersedes
FROM latent_artifacts WHERE space_id = @space_id ORDER BY slot, artifact_id;
