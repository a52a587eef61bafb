-- name: WatermarkLockWait :one
-- Locks a space's watermark, waiting for any worker that holds it.
SELECT projected_seq FROM projection_watermarks WHERE space_id = @space_id FOR UPDATE;
