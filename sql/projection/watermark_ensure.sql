-- name: WatermarkEnsure :exec
-- Makes sure a space has a watermark row to lock.
INSERT INTO projection_watermarks (space_id) VALUES (@space_id)
ON CONFLICT (space_id) DO NOTHING;
