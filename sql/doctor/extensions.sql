-- Installed and available versions of the extensions Zaxy uses.
SELECT a.name, coalesce(e.extversion, ''), coalesce(a.default_version, '')
FROM (VALUES ('vector'), ('age')) AS want (name)
LEFT JOIN pg_available_extensions a ON a.name = want.name
LEFT JOIN pg_extension e ON e.extname = want.name
ORDER BY want.name
