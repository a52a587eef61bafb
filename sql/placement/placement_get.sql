-- name: PlacementGet :one
-- The placement of one space.
SELECT space_id, cluster, pinned, moving_to, moved_from, placed_at, moved_at
FROM space_placements WHERE space_id = @space_id;
