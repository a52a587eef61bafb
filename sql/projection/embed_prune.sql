-- name: EmbedPrune :execrows
-- Removes a space's embeddings whose memory item is gone or has other text now (after a
-- rebuild, or its event's content erased), so they can never be served or block a fresh
-- vector. An item's text is coalesce(m.text, events.content).
DELETE FROM embeddings e
WHERE e.space_id = @space_id
  AND NOT EXISTS (SELECT FROM memory_items m
                  JOIN events c ON c.space_id = @space_id AND c.seq = m.seq
                  WHERE m.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND m.item_id = e.item_id
                    AND sha256(convert_to(coalesce(m.text, c.content), 'UTF8')) = e.text_hash);
