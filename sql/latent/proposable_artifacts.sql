-- name: ProposableArtifacts :many
-- A space's current artifacts of the types put up for review (procedure, failure, causal), in
-- slot and id order (the partial index on current artifacts by type: episodes and preferences,
-- most of a space's artifacts, are not read).
SELECT artifact_id, slot, artifact_type, summary, source_seqs, confidence
FROM latent_current
WHERE space_id = @space_id AND artifact_type IN ('procedure', 'failure', 'causal')
ORDER BY slot, artifact_id;
