-- name: SpacesList :many
-- Every space in the log.
SELECT space_id FROM spaces ORDER BY space_id;
