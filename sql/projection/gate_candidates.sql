-- name: GateCandidates :many
-- The encoding gate's candidates for a batch: the earlier ranked event items of the space sharing
-- a key with one of the batch's items, each once with the keys it shares, and its text (the gate
-- compares word sequences; gate.go), in seq order. The keys are index conditions of gate_keys'
-- primary key (space_key, key, seq), the space's key an InitPlan on spaces: one descent per key
-- of the batch. An item's text is coalesce(m.text, events.content) (NULL: its event's content).
WITH shared AS (
  SELECT g.seq, array_agg(g.key ORDER BY g.key)::bigint[] AS keys
  FROM gate_keys g
  WHERE g.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text)
    AND g.key = ANY (@keys::bigint[])
  GROUP BY g.seq
)
SELECT m.item_id, s.seq, s.keys,
       coalesce(m.text, (SELECT e.content FROM events e WHERE e.space_id = m.space_id AND e.seq = m.seq))::text AS text
FROM shared s
JOIN memory_items m ON m.space_id = @space_id::text AND m.item_id = 'ev:' || s.seq
ORDER BY s.seq;
