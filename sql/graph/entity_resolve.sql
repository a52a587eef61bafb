-- name: EntityResolve :one
-- An entity of a space by id (@ref) or by key (its normalized name, looked up by the id it
-- gives: @key_id, graph.EntityID), with the hash of the event that first named it (from
-- events). One first named by an erased event whose purge is pending
-- (zaxy_erased_pending, migration 000054) is not found.
SELECT e.entity_id, e.key, e.name, e.kinds, e.version, e.first_seq, fe.hash AS first_hash, e.last_seq,
       e.mentions, e.invalidated_seq
FROM entities e
JOIN events fe ON fe.space_id = @space_id AND fe.seq = e.first_seq
WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND e.entity_id IN (@ref, @key_id) AND e.first_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY e.entity_id = @ref DESC
LIMIT 1;
