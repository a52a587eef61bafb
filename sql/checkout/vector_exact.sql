-- Vector lane by exact scan of the space's vectors of the model; %[1]d is its dimension.
SELECT item_id, embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS distance
FROM embeddings
WHERE model = $2 AND space_id = $1
ORDER BY distance, item_id
LIMIT $4
