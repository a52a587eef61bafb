-- name: PlacementCount :many
-- How many spaces each cluster holds.
SELECT cluster, count(*)::bigint AS spaces FROM space_placements GROUP BY cluster ORDER BY cluster;
