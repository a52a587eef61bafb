-- name: EntityResolve :one
-- An entity of a space by id or by key (its normalized name). One first named by an erased
-- event whose purge is pending (zaxy_erased_pending, migration 000054) is not found.
SELECT entity_id, key, name, kinds, version, first_seq, first_hash, last_seq, mentions, invalidated_seq
FROM entities
WHERE space_id = @space_id AND (entity_id = @ref OR key = @key) AND first_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY entity_id = @ref DESC
LIMIT 1;
