-- name: WatermarkLock :one
-- Locks a space's watermark for one projection transaction; fails at once (55P03) when
-- another worker holds it.
SELECT projected_seq FROM projection_watermarks WHERE space_id = @space_id FOR UPDATE NOWAIT;
