-- name: PlacementInsert :exec
-- Places a space unless it is placed already (the first placement wins).
INSERT INTO space_placements (space_id, cluster, pinned) VALUES (@space_id, @cluster, @pinned)
ON CONFLICT (space_id) DO NOTHING;
