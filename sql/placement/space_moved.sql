-- name: SpaceMoved :exec
-- Marks a moving space moved on this cluster (zaxy_space_moved): its copy here stays read-only
-- until it is dropped. Runs as the schema owner.
SELECT zaxy_space_moved(@space_id::text);
