-- name: PlacementAbandon :one
-- Abandons a move that has not flipped.
UPDATE space_placements SET moving_to = NULL
WHERE space_id = @space_id AND moving_to IS NOT NULL
RETURNING space_id;
