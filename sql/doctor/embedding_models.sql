-- name: EmbeddingModels :many
-- The embedding models that have vectors, with their dimension and vector count.
SELECT m.model, m.dim, count(e.item_id) AS vectors
FROM embedding_models m
LEFT JOIN embeddings e ON e.model = m.model
GROUP BY m.model, m.dim
ORDER BY m.model;
