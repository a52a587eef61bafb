-- name: GateCandidates :many
-- The encoding gate's candidates for a batch: the earlier ranked items of the space sharing a key
-- with one of the batch's items, each once, with the keys it shares and its text (the gate
-- compares word sequences; gate.go), in seq order. One row per item, not per (key, item): near
-- duplicates share most of their keys, and an agent's similar tool outputs made each batch read
-- every such item's text up to eight times.
SELECT h.item_id, h.seq, h.keys::bytea[] AS keys, m.text
FROM (
  SELECT k.item_id, k.seq, array_agg(k.key ORDER BY k.key) AS keys
  FROM gate_keys k
  WHERE k.space_id = @space_id AND k.key = ANY (@keys::bytea[])
  GROUP BY k.item_id, k.seq
) h
JOIN memory_items m ON m.space_id = @space_id AND m.item_id = h.item_id
ORDER BY h.seq, h.item_id;
