-- name: EventMentions :many
-- The entity mentions in event $2 of space $1, in text order. None of an erased event whose
-- purge is pending (zaxy_erased_pending, migration 000054), nor of an entity one named first.
SELECT m.start_byte, m.end_byte, m.entity_id, e.name, m.kind
FROM mentions m
JOIN entities e ON e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND e.entity_id = m.entity_id
WHERE m.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text) AND m.seq = @seq AND m.seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[]) AND e.first_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY m.start_byte;
