-- Spaces with memory items that have no embedding for model $1.
SELECT DISTINCT m.space_id
FROM memory_items m
WHERE NOT EXISTS (SELECT FROM embeddings e
                  WHERE e.space_id = m.space_id AND e.item_id = m.item_id AND e.model = $1)
ORDER BY m.space_id
LIMIT $2
