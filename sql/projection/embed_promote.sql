-- Promotes a space to the HNSW index of model $2 once it has more than $3 vectors of it, and
-- moves any of its rows not yet indexed into the index. A no-op for small spaces.
WITH big AS (
  SELECT count(*) > $3 AS big
  FROM (SELECT 1 FROM embeddings WHERE space_id = $1 AND model = $2 LIMIT $3 + 1) t
), mark AS (
  INSERT INTO vector_spaces (space_id, model)
  SELECT $1, $2 FROM big WHERE big.big
  ON CONFLICT (space_id, model) DO NOTHING
)
UPDATE embeddings SET indexed = true
WHERE space_id = $1 AND model = $2 AND NOT indexed AND (SELECT big.big FROM big)
