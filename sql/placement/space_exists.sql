-- name: SpaceExists :one
-- Whether a space has events on this cluster.
SELECT EXISTS (SELECT FROM spaces WHERE space_id = @space_id);
