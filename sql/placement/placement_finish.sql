-- name: PlacementFinish :one
-- Forgets the copy a move left on @source once it is dropped.
UPDATE space_placements SET moved_from = NULL
WHERE space_id = @space_id AND moved_from = @source
RETURNING space_id;
