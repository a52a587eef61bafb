-- name: WatermarkSet :exec
-- Records how far the space's artifacts are built, and by which producers' version.
INSERT INTO latent_watermarks (space_id, built_seq, built_version) VALUES (@space_id, @built_seq, @built_version)
ON CONFLICT (space_id) DO UPDATE SET built_seq = excluded.built_seq, built_version = excluded.built_version,
  updated_at = clock_timestamp();
