-- name: TSConfigExists :one
-- Whether a text search configuration of that name exists.
SELECT EXISTS (SELECT FROM pg_catalog.pg_ts_config WHERE cfgname = @name);
