-- name: SpaceExists :one
-- Whether a space has had its first append.
SELECT EXISTS (SELECT FROM spaces WHERE space_id = $1);
