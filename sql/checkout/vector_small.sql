-- Whether a space has at most $3 vectors of model $2 (counting stops at $3 + 1), so the vector
-- lane can scan them exactly: cheaper than the HNSW index and with perfect recall.
SELECT count(*) <= $3 FROM (SELECT 1 FROM embeddings WHERE space_id = $1 AND model = $2 LIMIT $3 + 1) t
