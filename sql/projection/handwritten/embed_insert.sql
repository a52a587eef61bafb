-- Stores embeddings for model $2 (dimension $3). Items that were discarded meanwhile (a
-- rebuild) or whose text changed are skipped; the next pass picks them up. Rows of spaces
-- promoted to the HNSW index go straight into it.
INSERT INTO embeddings (space_id, item_id, model, dim, embedding, text_hash, indexed)
SELECT $1, u.item_id, $2, $3, u.embedding, u.text_hash,
       EXISTS (SELECT FROM vector_spaces v WHERE v.space_id = $1 AND v.model = $2)
FROM unnest($4::text[], $5::vector[], $6::bytea[]) AS u (item_id, embedding, text_hash)
JOIN memory_items m ON m.space_id = $1 AND m.item_id = u.item_id AND sha256(convert_to(m.text, 'UTF8')) = u.text_hash
ON CONFLICT (space_id, item_id, model) DO NOTHING
