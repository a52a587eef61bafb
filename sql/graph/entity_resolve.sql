-- name: EntityResolve :one
-- An entity of a space by id or by key (its normalized name).
SELECT entity_id, key, name, kinds, version, first_seq, first_hash, last_seq, mentions, invalidated_seq
FROM entities
WHERE space_id = @space_id AND (entity_id = @ref OR key = @key)
ORDER BY entity_id = @ref DESC
LIMIT 1;
