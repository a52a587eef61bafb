-- Makes sure a space has a watermark row to lock.
INSERT INTO projection_watermarks (space_id) VALUES ($1)
ON CONFLICT (space_id) DO NOTHING
