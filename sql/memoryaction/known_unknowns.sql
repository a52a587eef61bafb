-- name: KnownUnknowns :many
-- A space's latest memory.known_unknown events that are not erased, newest first (index
-- events_memory_actions).
SELECT e.seq, e.hash, e.session_id, e.occurred_at, coalesce(e.data->>'question', '')::text AS question,
       coalesce(e.data->>'context', '')::text AS context
FROM events e
WHERE e.space_id = @space_id AND e.type = 'memory.known_unknown' AND e.erased_by_seq IS NULL
ORDER BY e.seq DESC
LIMIT @max_rows;
