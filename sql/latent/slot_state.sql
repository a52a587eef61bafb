-- name: SlotState :many
-- The artifacts of slots starting with one of the given prefixes (LIKE patterns, escaped by the
-- caller), or of every slot of the given types: what a derivation replaces (current ones) and
-- supersedes (the newest stale one), once the caller keeps the slots it derives (a prefix of
-- session "a" also finds session "a:b"'s slots).
-- A current episode comes with its sources and entities: an episode derived again from the same
-- events, covering the same entities, is the same artifact, and the build keeps it as it is.
SELECT artifact_id, slot, artifact_type, stale_seq,
       CASE WHEN artifact_type = 'episode' AND stale_at IS NULL THEN source_seqs END::bigint[] AS episode_sources,
       CASE WHEN artifact_type = 'episode' AND stale_at IS NULL THEN entity_refs END::text[] AS episode_entities
FROM latent_artifacts
WHERE space_id = @space_id
  AND (slot LIKE ANY(@prefixes::text[]) OR artifact_type = ANY(@types::text[]))
ORDER BY slot, stale_seq DESC NULLS FIRST, artifact_id;
