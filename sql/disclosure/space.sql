-- name: Space :one
-- A space's chain head and how far its projections have got; no row when the space does not exist.
SELECT s.head_seq, s.head_hash, coalesce(w.projected_seq, 0)::bigint AS projected_seq
FROM spaces s
LEFT JOIN projection_watermarks w ON w.space_id = s.space_id
WHERE s.space_id = @space_id;
