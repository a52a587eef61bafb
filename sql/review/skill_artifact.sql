-- name: SkillArtifact :many
-- The latent artifact a mined skill proposal names (data.artifact): by its id, else the
-- current artifact of its slot (a later build re-addressed it), at most one row.
SELECT a.artifact_id, a.artifact_type, a.summary, a.payload::text AS payload
FROM latent_artifacts a
WHERE a.space_id = @space_id AND (a.artifact_id = @artifact_id OR (a.slot = @slot AND a.stale_at IS NULL))
ORDER BY (a.artifact_id = @artifact_id) DESC, a.artifact_id
LIMIT 1;
