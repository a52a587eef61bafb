-- name: EntitiesLoad :many
-- The entities a batch touches, by id (an entity named by key is looked up by the id its key
-- gives, graph.EntityID).
SELECT entity_id, key, name, kinds, version, first_seq, last_seq, mentions, invalidated_seq
FROM entities
WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND entity_id = ANY (@entity_ids::text[]);
