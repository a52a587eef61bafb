-- Adds a batch's ranked items to the encoding gate's keys: one row per (key, item).
-- Arrays, so the batch is one statement.
INSERT INTO gate_keys (space_id, key, item_id, seq)
SELECT $1, u.key, u.item_id, u.seq
FROM unnest($2::bytea[], $3::text[], $4::bigint[]) AS u (key, item_id, seq)
ORDER BY u.key, u.item_id
ON CONFLICT (space_id, key, item_id) DO NOTHING
