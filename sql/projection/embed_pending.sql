-- name: EmbedPending :many
-- Memory items of a space without an embedding for model $2, oldest first, after the item
-- (@after_seq, @after_item) in that order: a pass over a space's backlog reads on from where
-- its previous batch ended, instead of probing every item it has embedded again (which made a
-- backlog of n items cost n²/batch probes). The probe is a
-- LATERAL lookup per item so it stays an index lookup even when the statistics of a fast
-- growing embeddings table are stale (a materialized anti-join would be quadratic). An item
-- whose text is its event's content stores NULL and reads the content: a subquery in the
-- select list, which the plan evaluates after the sort and limit, for the returned rows only.
SELECT m.item_id, m.seq,
       coalesce(m.text, (SELECT e.content FROM events e WHERE e.space_id = @space_id AND e.seq = m.seq))::text AS text
FROM memory_items m
LEFT JOIN LATERAL (
  SELECT 1 AS found FROM embeddings e
  WHERE e.space_id = @space_id AND e.item_id = m.item_id AND e.model = @model
  LIMIT 1
) x ON true
WHERE m.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
  AND m.seq >= @after_seq::bigint AND (m.seq, m.item_id) > (@after_seq::bigint, @after_item::text)
  AND x.found IS NULL
ORDER BY m.seq, m.item_id
LIMIT @max_rows;
