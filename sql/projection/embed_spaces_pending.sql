-- name: EmbedSpacesPending :many
-- Spaces with memory items that have no embedding for model $1 (per-item index lookups, as
-- in embed_pending).
SELECT DISTINCT s.space_id
FROM memory_items m
JOIN spaces s ON s.space_key = m.space_key
LEFT JOIN LATERAL (
  SELECT 1 AS found FROM embeddings e
  WHERE e.space_id = s.space_id AND e.item_id = m.item_id AND e.model = @model
  LIMIT 1
) x ON true
WHERE x.found IS NULL
ORDER BY s.space_id
LIMIT @max_rows;
