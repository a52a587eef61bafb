-- name: GateKeysInsert :exec
-- Adds a batch's ranked items to the encoding gate's keys: one row per (key, item). Each array
-- is one column of the rows, all of one length, so the batch is one statement.
WITH u AS (
  SELECT unnest(@keys::bytea[]) AS key, unnest(@item_ids::text[]) AS item_id, unnest(@seqs::bigint[]) AS seq
)
INSERT INTO gate_keys (space_id, key, item_id, seq)
SELECT @space_id::text, u.key, u.item_id, u.seq
FROM u
ORDER BY u.key, u.item_id
ON CONFLICT (space_id, key, item_id) DO NOTHING;
