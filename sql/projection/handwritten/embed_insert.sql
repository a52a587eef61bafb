-- Stores embeddings for model $2 (dimension $3). Items that were discarded meanwhile (a
-- rebuild) or whose text changed are skipped; the next pass picks them up. Nothing is stored
-- while an erasure record lies past the space's projection watermark: the projections may still
-- hold the erased text until the projector purges them (projection/purge.go), and the caller
-- holds the space's erasure lock, so an erasure committed since the texts were read is seen.
-- Rows of spaces promoted to the HNSW index go straight into it.
INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash, indexed)
SELECT $1, u.item_id, $2, $3, u.embedding, u.text_hash,
       EXISTS (SELECT FROM vector_spaces v WHERE v.space_id = $1 AND v.model = $2)
FROM unnest($4::text[], $5::vector[], $6::bytea[]) AS u (item_id, embedding, text_hash)
JOIN memory_items m ON m.space_id = $1 AND m.item_id = u.item_id AND sha256(convert_to(m.text, 'UTF8')) = u.text_hash
WHERE NOT EXISTS (SELECT FROM events e
                  WHERE e.space_id = $1 AND e.type = 'erasure.recorded'
                    AND e.seq > coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = $1), 0))
ON CONFLICT (space_id, item_id, model) DO NOTHING
