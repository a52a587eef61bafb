-- name: SpaceUnfreeze :exec
-- Lifts a freeze that is still moving (zaxy_space_unfreeze): appends resume on this cluster.
-- Runs as the schema owner.
SELECT zaxy_space_unfreeze(@space_id::text);
