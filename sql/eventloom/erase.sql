-- name: Erase :one
-- Appends the erasure.recorded event naming a seq and replaces that event's content and data
-- with the tombstone (migrations/000011_erasure.up.sql, zaxy_erase).
SELECT erasure_seq, erasure_hash
FROM zaxy_erase(@space_id, @seq, @reason, @actor);
