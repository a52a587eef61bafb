-- name: Status :many
-- Projection lag of one space, or of every space when $1 is empty.
SELECT space_id, head_seq, projected_seq, lag, head_at, projected_at
FROM projection_status
WHERE @space_id::text = '' OR space_id = @space_id
ORDER BY space_id;
