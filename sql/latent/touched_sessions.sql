-- name: TouchedSessions :many
-- The sessions with events in (@after_seq, @upto_seq], and which kinds of event arrived there:
-- the producers recompute what those events can change.
SELECT session_id, array_agg(DISTINCT type ORDER BY type)::text[] AS types
FROM events
WHERE space_id = @space_id AND seq > @after_seq AND seq <= @upto_seq
GROUP BY session_id
ORDER BY session_id;
