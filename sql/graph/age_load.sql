-- name: AgeLoad :exec
-- Loads the AGE library into the session by name (superusers only).
LOAD 'age';
