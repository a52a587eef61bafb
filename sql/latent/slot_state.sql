-- name: SlotState :many
-- The artifacts of the slots starting with one of the given prefixes, or of every slot of the
-- given types: what a derivation replaces (current ones) and supersedes (the newest stale one),
-- once the caller keeps the slots it derives (a prefix of session "a" also finds session
-- "a:b"'s slots). A prefix's slots are one byte range, from the prefix to the prefix with its
-- last character incremented (every prefix ends in '#' or ':'), read through
-- latent_artifacts_slot_bytes; the types' through latent_artifacts_type (migration 000044).
-- A current episode comes with its sources and entities: an episode derived again from the same
-- events, covering the same entities, is the same artifact, and the build keeps it as it is.
SELECT s.artifact_id, s.slot, s.artifact_type, s.stale_seq, s.episode_sources, s.episode_entities
FROM (
  SELECT a.artifact_id, a.slot, a.artifact_type, a.stale_seq,
         CASE WHEN a.artifact_type = 'episode' AND a.stale_at IS NULL THEN a.source_seqs END::bigint[] AS episode_sources,
         CASE WHEN a.artifact_type = 'episode' AND a.stale_at IS NULL THEN a.entity_refs END::text[] AS episode_entities
  FROM unnest(@prefixes::text[]) AS p(prefix)
  CROSS JOIN LATERAL (SELECT left(p.prefix, -1) || chr(ascii(right(p.prefix, 1)) + 1) AS high) r
  JOIN latent_artifacts a ON a.space_id = @space_id
   AND (a.slot COLLATE "C") >= (p.prefix COLLATE "C") AND (a.slot COLLATE "C") < (r.high COLLATE "C")
  UNION
  SELECT a.artifact_id, a.slot, a.artifact_type, a.stale_seq,
         CASE WHEN a.artifact_type = 'episode' AND a.stale_at IS NULL THEN a.source_seqs END::bigint[],
         CASE WHEN a.artifact_type = 'episode' AND a.stale_at IS NULL THEN a.entity_refs END::text[]
  FROM latent_artifacts a
  WHERE a.space_id = @space_id AND a.artifact_type = ANY (@types::text[])
) s
ORDER BY s.slot, s.stale_seq DESC NULLS FIRST, s.artifact_id;
