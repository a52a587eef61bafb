-- name: GateKeysInsert :exec
-- Adds a batch's ranked items to the encoding gate's keys: one gate_items row per item holding
-- its keys. Each array is one column of the (key, item) pairs, all of one length, so the batch
-- is one statement.
WITH u AS (
  SELECT unnest(@keys::bytea[]) AS key, unnest(@item_ids::text[]) AS item_id, unnest(@seqs::bigint[]) AS seq
)
INSERT INTO gate_items (space_id, item_id, seq, keys)
SELECT @space_id::text, u.item_id, min(u.seq), array_agg(DISTINCT u.key ORDER BY u.key)
FROM u
GROUP BY u.item_id
ORDER BY u.item_id
ON CONFLICT (space_id, item_id) DO NOTHING;
