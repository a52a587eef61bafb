-- name: WatermarkSet :exec
-- Moves a space's watermark to the last applied event, in the projection's transaction.
UPDATE projection_watermarks
SET projected_seq = @projected_seq, projected_hash = @projected_hash, updated_at = clock_timestamp()
WHERE space_id = @space_id;
