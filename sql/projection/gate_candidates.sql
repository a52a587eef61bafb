-- name: GateCandidates :many
-- The encoding gate's candidates for a batch: the earlier ranked items of the space sharing a key
-- with one of the batch's items, with their text (the gate compares word sets; gate.go).
SELECT k.key, k.item_id, k.seq, m.text
FROM gate_keys k
JOIN memory_items m ON m.space_id = k.space_id AND m.item_id = k.item_id
WHERE k.space_id = @space_id AND k.key = ANY (@keys::bytea[])
ORDER BY k.key, k.seq, k.item_id;
