-- name: DeltaEntities :many
-- The entities touched in (@after, @upto] (last_seq), each with its mentions and whether the
-- sketch must drop it (invalidated, or a name that speaks in the space).
SELECT e.key, e.mentions,
       (e.invalidated_seq IS NOT NULL
        OR EXISTS (SELECT FROM speaker_names s WHERE s.space_id = @space_id AND s.name_key = e.key))::boolean AS dropped
FROM entities e
WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND e.last_seq > @after AND e.last_seq <= @upto
ORDER BY e.key;
