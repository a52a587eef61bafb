-- name: EmbedPromote :exec
-- Promotes a space to the HNSW index of model $2 once it has more than $3 vectors of it, and
-- moves any of its rows not yet indexed into the index. A no-op for small spaces.
WITH big AS (
  SELECT count(*) > sqlc.arg(threshold)::bigint AS big
  FROM (SELECT 1 FROM embeddings x WHERE x.space_id = @space_id AND x.model = @model LIMIT sqlc.arg(threshold)::bigint + 1) t
), mark AS (
  INSERT INTO vector_spaces (space_id, model)
  SELECT @space_id, @model FROM big WHERE big.big
  ON CONFLICT (space_id, model) DO NOTHING
)
UPDATE embeddings e SET indexed = true
WHERE e.space_id = @space_id AND e.model = @model AND NOT e.indexed AND (SELECT big.big FROM big);
