-- name: ClusterSpaces :many
-- The spaces with events on this cluster.
SELECT space_id FROM spaces ORDER BY space_id;
