-- An entity of a space by id or by key (its normalized name).
SELECT entity_id, key, name, kinds, version, first_seq, first_hash, last_seq, mentions, invalidated_seq
FROM entities
WHERE space_id = $1 AND (entity_id = $2 OR key = $3)
ORDER BY entity_id = $2 DESC
LIMIT 1
