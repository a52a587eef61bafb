-- name: PlacementList :many
-- The placements of the given spaces.
SELECT space_id, cluster FROM space_placements WHERE space_id = ANY(@space_ids::text[]);
