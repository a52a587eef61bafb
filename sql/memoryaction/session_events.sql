-- name: SessionEvents :many
-- The first max_rows events of one session of a space in seq order (index events_session),
-- erased ones with an empty body.
SELECT seq, hash, type, actor, occurred_at,
       CASE WHEN erased_by_seq IS NULL THEN content ELSE '' END::text AS content,
       CASE WHEN erased_by_seq IS NULL THEN data ELSE '{}' END::text AS data,
       (erased_by_seq IS NOT NULL)::boolean AS erased
FROM events
WHERE space_id = @space_id AND session_id = @session_id
ORDER BY seq
LIMIT @max_rows;
