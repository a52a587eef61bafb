-- name: SpaceFreeze :one
-- Freezes a space on this cluster for a move to cluster @target and returns its head seq
-- (zaxy_space_freeze: waits for the appends in flight; freezing again for the same target
-- returns the head again). Runs as the schema owner.
SELECT zaxy_space_freeze(@space_id::text, @target::text)::bigint AS head_seq;
