-- name: PlacementBeginMove :one
-- Names the target of a move of a space from @cluster; a move already naming it is resumed.
UPDATE space_placements SET moving_to = @target
WHERE space_id = @space_id AND cluster = @cluster AND (moving_to IS NULL OR moving_to = @target)
  AND moved_from IS NULL
RETURNING space_id;
