-- Vector lane through the model's partial HNSW index; %[1]d is the model's dimension (the
-- index is on embedding::halfvec(dim), so the query names the same expression). Iterative
-- scans (set by the caller) keep going until the space filter has yielded $4 rows; their
-- relaxed order is re-sorted outside.
WITH hits AS MATERIALIZED (
  SELECT item_id, embedding::halfvec(%[1]d) <=> $3::halfvec(%[1]d) AS distance
  FROM embeddings
  WHERE model = $2 AND space_id = $1
  ORDER BY embedding::halfvec(%[1]d) <=> $3::halfvec(%[1]d)
  LIMIT $4
)
SELECT item_id, distance FROM hits ORDER BY distance, item_id
