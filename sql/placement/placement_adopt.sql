-- name: PlacementAdopt :execrows
-- Pins the given spaces, which have events on @cluster, to it unless they are placed already.
INSERT INTO space_placements (space_id, cluster, pinned)
SELECT s, @cluster, true FROM unnest(@space_ids::text[]) AS s
ON CONFLICT (space_id) DO NOTHING;
