-- name: EntitiesLoad :many
-- The entities a batch touches, by key or by id.
SELECT entity_id, key, name, kinds, version, first_seq, last_seq, mentions, invalidated_seq
FROM entities
WHERE space_id = @space_id AND (key = ANY (@keys::text[]) OR entity_id = ANY (@entity_ids::text[]));
