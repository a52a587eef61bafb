-- name: WatermarkGet :one
-- How far the space's artifacts are built (0 when never), by which producers' version (0 when
-- never), and how far its projections are: a build goes from the first to the last.
SELECT coalesce((SELECT built_seq FROM latent_watermarks l WHERE l.space_id = @space_id), 0)::bigint AS built_seq,
       coalesce((SELECT built_version FROM latent_watermarks l WHERE l.space_id = @space_id), 0)::integer AS built_version,
       coalesce((SELECT projected_seq FROM projection_watermarks p WHERE p.space_id = @space_id), 0)::bigint AS projected_seq;
