-- name: VectorPromoted :one
-- Whether a space was promoted to model @model's HNSW index (projection/embed_promote): then the
-- vector lane walks the index, otherwise it scans the space's few vectors exactly.
SELECT EXISTS (SELECT FROM vector_spaces WHERE space_id = @space_id AND model = @model);
