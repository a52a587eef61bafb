-- name: ArtifactsDelete :exec
-- Deletes replaced (never stale) artifacts.
DELETE FROM latent_artifacts WHERE space_id = @space_id AND artifact_id = ANY(@ids::text[]) AND stale_at IS NULL;
