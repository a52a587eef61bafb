-- name: AGESync :exec
-- Mirrors a batch's new and changed entities and facts into the space's AGE graph.
SELECT zaxy_age_sync(@space_id, @entities::text[], @facts::text[]);
