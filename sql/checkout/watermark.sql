-- name: Watermark :one
-- A space's projection watermark: the last seq whose projection has committed (0 before any).
SELECT coalesce((SELECT projected_seq FROM projection_watermarks WHERE space_id = @space_id), 0)::bigint AS projected_seq;
