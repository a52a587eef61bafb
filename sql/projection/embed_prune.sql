-- name: EmbedPrune :execrows
-- Removes a space's embeddings whose memory item is gone or has other text now (after a
-- rebuild), so they can never be served or block a fresh vector.
DELETE FROM embeddings e
WHERE e.space_id = @space_id
  AND NOT EXISTS (SELECT FROM memory_items m
                  WHERE m.space_id = e.space_id AND m.item_id = e.item_id
                    AND sha256(convert_to(m.text, 'UTF8')) = e.text_hash);
