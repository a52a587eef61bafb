-- name: SpacesOverview :many
-- The spaces a caller reaches (every space when @all_spaces, else those in @space_ids), each
-- with its head, projection lag and pending proposals, for GET /v1/spaces (the console's
-- spaces page). At most @max_spaces rows, in space order.
SELECT ps.space_id, ps.head_seq, ps.head_at, ps.projected_seq, ps.lag::bigint AS lag, ps.projected_at,
       (SELECT count(*) FROM proposals p WHERE p.space_id = ps.space_id AND p.status = 'pending')::bigint AS pending_proposals
FROM projection_status ps
WHERE @all_spaces::boolean OR ps.space_id = ANY(@space_ids::text[])
ORDER BY ps.space_id
LIMIT @max_spaces::integer;
