-- Memory items of a space without an embedding for model $2, oldest first.
SELECT m.item_id, m.text
FROM memory_items m
WHERE m.space_id = $1
  AND NOT EXISTS (SELECT FROM embeddings e
                  WHERE e.space_id = m.space_id AND e.item_id = m.item_id AND e.model = $2)
ORDER BY m.seq, m.item_id
LIMIT $3
