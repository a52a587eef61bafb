-- name: EmbedInsert :execrows
-- Stores embeddings for model (dimension dim): item_ids, embeddings and text_hashes are the
-- rows' columns, of one length. Items that were discarded meanwhile (a rebuild) or whose text
-- changed are skipped (an item's text is coalesce(m.text, events.content)); the next pass
-- picks them up. Nothing is stored
-- while an erasure record lies past the space's projection watermark: the projections may still
-- hold the erased text until the projector purges them (projection/purge.go), and the caller
-- holds the space's erasure lock, so an erasure committed since the texts were read is seen.
-- Rows of spaces promoted to the HNSW index go straight into it.
INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash, indexed)
SELECT @space_id::text, u.item_id, @model::text, @dim::int, u.embedding, u.text_hash,
       EXISTS (SELECT FROM vector_spaces v WHERE v.space_id = @space_id::text AND v.model = @model::text)
FROM (SELECT unnest(@item_ids::text[]) AS item_id, unnest(@embeddings::vector[]) AS embedding,
             unnest(@text_hashes::bytea[]) AS text_hash) u
JOIN memory_items m ON m.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND m.item_id = u.item_id
JOIN events c ON c.space_id = @space_id::text AND c.seq = m.seq AND sha256(convert_to(coalesce(m.text, c.content), 'UTF8')) = u.text_hash
WHERE NOT EXISTS (SELECT FROM events e
                  WHERE e.space_id = @space_id::text AND e.type = 'erasure.recorded'
                    AND e.seq > coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = @space_id::text), 0))
ON CONFLICT (space_id, item_id, model) DO NOTHING;
