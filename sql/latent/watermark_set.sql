-- name: WatermarkSet :exec
-- Records how far the space's artifacts are built.
INSERT INTO latent_watermarks (space_id, built_seq) VALUES (@space_id, @built_seq)
ON CONFLICT (space_id) DO UPDATE SET built_seq = excluded.built_seq, updated_at = clock_timestamp();
