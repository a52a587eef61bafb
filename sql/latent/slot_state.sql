-- name: SlotState :many
-- The artifacts of the given slots, or of every slot of the given types: what a derivation
-- replaces (current ones) and supersedes (the newest stale one).
SELECT artifact_id, slot, stale_seq
FROM latent_artifacts
WHERE space_id = @space_id AND (slot = ANY(@slots::text[]) OR artifact_type = ANY(@types::text[]))
ORDER BY slot, stale_seq DESC NULLS FIRST, artifact_id;
