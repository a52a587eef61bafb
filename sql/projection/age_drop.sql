-- name: AGEDrop :exec
-- Drops a space's AGE graph before a rebuild.
SELECT zaxy_age_drop(@space_id);
