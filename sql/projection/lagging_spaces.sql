-- name: LaggingSpaces :many
-- Spaces whose projections are behind their log.
SELECT space_id, head_seq FROM projection_status WHERE lag > 0 ORDER BY space_id LIMIT @max_rows;
