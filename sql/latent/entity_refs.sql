-- name: EntityRefs :many
-- The entities mentioned by the given events, most mentioned first.
SELECT entity_id FROM mentions
WHERE space_id = @space_id AND seq = ANY(@seqs::bigint[])
GROUP BY entity_id
ORDER BY count(*) DESC, entity_id
LIMIT @max_refs;
