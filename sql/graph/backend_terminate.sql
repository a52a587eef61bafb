-- name: BackendTerminate :one
-- Asks backend @pid to end (pg_terminate_backend); false when it could not be signalled.
SELECT pg_terminate_backend(@pid::integer)::boolean AS signalled;
