-- name: BackendAlive :one
-- Whether pg_stat_activity still shows backend @pid.
SELECT EXISTS (SELECT FROM pg_catalog.pg_stat_activity WHERE pid = @pid::integer) AS alive;
