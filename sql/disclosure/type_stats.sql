-- name: TypeStats :one
-- How many events of type $2 space $1 holds, and their seq range.
SELECT count(*) AS total, coalesce(min(e.seq), 0)::bigint AS first_seq, coalesce(max(e.seq), 0)::bigint AS last_seq
FROM events e
WHERE e.space_id = @space_id AND e.type = @type;
