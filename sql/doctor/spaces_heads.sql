-- name: SpacesHeads :many
-- Every space with its chain head, for the chain check.
SELECT space_id, head_seq FROM spaces ORDER BY space_id;
