-- name: AGEInstalled :one
-- Whether the Apache AGE extension is installed in this database.
SELECT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname = 'age');
