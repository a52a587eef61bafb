-- name: EventKind :one
-- An event's session and type.
SELECT session_id, type FROM events WHERE space_id = @space_id AND seq = @seq;
