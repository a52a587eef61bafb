-- name: PlacementFlip :one
-- Flips a moving space to its target: the cluster it left is kept in moved_from.
UPDATE space_placements
SET moved_from = cluster, cluster = moving_to, moving_to = NULL, pinned = true, moved_at = clock_timestamp()
WHERE space_id = @space_id AND moving_to = @target
RETURNING space_id;
