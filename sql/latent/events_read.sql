-- name: EventsRead :many
-- The events up to @upto_seq that the producers read: those of the given sessions, and every
-- event of the given types.
SELECT seq, hash, type, session_id, actor, occurred_at, content, data
FROM events
WHERE space_id = @space_id AND seq <= @upto_seq
  AND (session_id = ANY(@sessions::text[]) OR type = ANY(@types::text[]))
ORDER BY seq;
