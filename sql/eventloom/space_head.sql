-- name: SpaceHead :one
-- A space's recorded chain head.
SELECT head_seq, head_hash
FROM spaces
WHERE space_id = $1;
