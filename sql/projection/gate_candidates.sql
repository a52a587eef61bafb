-- name: GateCandidates :many
-- The encoding gate's candidates for a batch: the earlier ranked items of the space sharing a key
-- with one of the batch's items (gate_items' GIN index on (space_id, keys)), each once, with the
-- keys it shares and its text (the gate compares word sequences; gate.go), in seq order.
SELECT g.item_id, g.seq,
       ARRAY(SELECT k FROM unnest(g.keys) AS k WHERE k = ANY (@keys::bytea[]) ORDER BY k)::bytea[] AS keys,
       m.text
FROM gate_items g
JOIN memory_items m ON m.space_id = g.space_id AND m.item_id = g.item_id
WHERE g.space_id = @space_id AND g.keys && @keys::bytea[]
ORDER BY g.seq, g.item_id;
