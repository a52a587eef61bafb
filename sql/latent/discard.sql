-- name: Discard :exec
-- Discards a space's artifacts and its build watermark (a rebuild starts from the log's start).
WITH a AS (DELETE FROM latent_artifacts x WHERE x.space_id = @space_id)
DELETE FROM latent_watermarks w WHERE w.space_id = @space_id;
