-- name: EnsureVectorIndex :exec
-- Registers an embedding model and creates its partial HNSW index if need be ($1 model, $2
-- dimension); raises ZX010 when the model is known with another dimension.
SELECT zaxy_ensure_vector_index(@model, @dimensions);
