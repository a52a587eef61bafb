-- name: SlotState :many
-- The artifacts of the given slots, of slots starting with one of the given prefixes (LIKE
-- patterns, escaped by the caller), or of every slot of the given types: what a derivation
-- replaces (current ones) and supersedes (the newest stale one).
SELECT artifact_id, slot, stale_seq
FROM latent_artifacts
WHERE space_id = @space_id
  AND (slot = ANY(@slots::text[]) OR slot LIKE ANY(@prefixes::text[]) OR artifact_type = ANY(@types::text[]))
ORDER BY slot, stale_seq DESC NULLS FIRST, artifact_id;
