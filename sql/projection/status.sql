-- Projection lag of one space, or of every space when $1 is empty.
SELECT space_id, head_seq, projected_seq, lag, head_at, projected_at
FROM projection_status
WHERE $1 = '' OR space_id = $1
ORDER BY space_id
