-- The entities a batch touches, by key or by id.
SELECT entity_id, key, name, kinds, version, first_seq, first_hash, last_seq, mentions, invalidated_seq
FROM entities
WHERE space_id = $1 AND (key = ANY ($2::text[]) OR entity_id = ANY ($3::text[]))
