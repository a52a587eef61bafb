-- name: BackendMemory :one
-- The private memory in bytes of backend $1, one of this login role's own (migration 000052
-- reads it from /proc); -1 where it cannot be read.
SELECT coalesce(zaxy_backend_memory(sqlc.arg(pid)::integer), -1)::bigint AS bytes;
