-- name: Current :one
-- The version checkout ranks the space with now (projected), with the versions it replaced.
SELECT version, history FROM retrieval_policy_current WHERE space_id = @space_id;
