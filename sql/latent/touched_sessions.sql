-- name: TouchedSessions :many
-- The sessions with events in (@after_seq, @upto_seq], and which kinds of event arrived there:
-- the producers recompute what those events can change. Bookkeeping (checkout.*, zaxy.*: a
-- checkout's surfaced record) changes nothing they derive, so it touches no session.
SELECT session_id, array_agg(DISTINCT type ORDER BY type)::text[] AS types
FROM events
WHERE space_id = @space_id AND seq > @after_seq AND seq <= @upto_seq
  AND type NOT LIKE 'checkout.%' AND type NOT LIKE 'zaxy.%'
GROUP BY session_id
ORDER BY session_id;
