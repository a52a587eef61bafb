-- name: ProjectionLag :one
-- A space's projection lag.
SELECT coalesce((SELECT lag FROM projection_status WHERE space_id = @space_id), 0)::bigint AS lag;
