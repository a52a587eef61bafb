-- name: Extensions :many
-- Installed and available versions of the extensions Zaxy uses.
SELECT want.name, coalesce(e.extversion, '')::text AS installed, coalesce(a.default_version, '')::text AS available
FROM unnest(ARRAY['vector', 'age']::text[]) AS want (name)
LEFT JOIN pg_catalog.pg_available_extensions a ON a.name = want.name
LEFT JOIN pg_catalog.pg_extension e ON e.extname = want.name
ORDER BY want.name;
