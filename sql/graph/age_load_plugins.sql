-- name: AgeLoadPlugins :exec
-- Loads the AGE library into the session from $libdir/plugins, which any role may load from.
LOAD '$libdir/plugins/age';
