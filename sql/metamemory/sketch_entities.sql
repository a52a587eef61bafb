-- name: SketchEntities :many
-- A space's entity keys with their mentions, most mentioned first, at most @max_entities: the
-- entities of its temporal graph that are not invalidated and are not a name that speaks in the
-- space (speaker_names; a speaker's name says who talked, not what about, as in the exact lane).
SELECT e.key, e.mentions
FROM entities e
WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND e.invalidated_seq IS NULL
  AND NOT EXISTS (SELECT FROM speaker_names s WHERE s.space_id = @space_id AND s.name_key = e.key)
ORDER BY e.mentions DESC, e.key
LIMIT @max_entities;
