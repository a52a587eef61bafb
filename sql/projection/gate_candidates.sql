-- name: GateCandidates :many
-- The encoding gate's candidates for a batch: under each of the batch's keys (distinct), the
-- @per_key latest earlier ranked event items of the space sharing it, each item once with the
-- keys it was found under, and its text (the gate compares word sequences; gate.go), in seq
-- order. Each key is one backward descent of gate_keys' primary key (space_key, key, seq), the
-- space's key an InitPlan on spaces; each item's text one index lookup of memory_items by
-- (space, seq) or (space, item id), both given so that either index finds the row at once (a
-- LIMIT keeps it a per-row lookup, never a hash join over the space's items). An item's text
-- is coalesce(m.text, events.content) (NULL: its event's content).
WITH latest AS (
  SELECT k.key, c.seq
  FROM unnest(@keys::int[]) AS k(key)
  CROSS JOIN LATERAL (
    SELECT g.seq
    FROM gate_keys g
    WHERE g.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text)
      AND g.key = k.key
    ORDER BY g.seq DESC
    LIMIT @per_key::int
  ) c
), shared AS (
  SELECT l.seq, array_agg(l.key ORDER BY l.key)::int[] AS keys
  FROM latest l
  GROUP BY l.seq
)
SELECT t.item_id, s.seq, s.keys, t.text
FROM shared s
CROSS JOIN LATERAL (
  SELECT m.item_id,
         coalesce(m.text, (SELECT e.content FROM events e WHERE e.space_id = @space_id::text AND e.seq = m.seq))::text AS text
  FROM memory_items m
  WHERE m.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text)
    AND m.seq = s.seq AND m.item_id = 'ev:' || s.seq
  LIMIT 1
) t
ORDER BY s.seq;
