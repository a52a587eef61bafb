-- name: SpaceDrop :one
-- Drops the copy of a moved space on this cluster (zaxy_space_drop) and returns how many events
-- it held. Runs as the schema owner.
SELECT zaxy_space_drop(@space_id::text)::bigint AS events;
