-- name: SpaceHead :one
-- A space's chain head seq on this cluster.
SELECT head_seq FROM spaces WHERE space_id = @space_id;
