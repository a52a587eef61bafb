-- name: PlacementPending :many
-- The spaces whose move has not flipped (moving_to) or not been finished (moved_from).
SELECT space_id, moving_to, moved_from FROM space_placements
WHERE moving_to IS NOT NULL OR moved_from IS NOT NULL
ORDER BY space_id LIMIT 100;
