-- name: SpaceHead :one
-- The seq of a space's last event: where a rebuild's replay stops.
SELECT head_seq FROM spaces WHERE space_id = @space_id;
