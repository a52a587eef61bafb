-- name: EventMentions :many
-- The entity mentions in event $2 of space $1, in text order.
SELECT m.start_byte, m.end_byte, m.entity_id, e.name, m.kind
FROM mentions m
JOIN entities e ON e.space_id = m.space_id AND e.entity_id = m.entity_id
WHERE m.space_id = @space_id AND m.seq = @seq
ORDER BY m.start_byte;
