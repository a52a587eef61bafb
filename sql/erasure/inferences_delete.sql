-- name: InferencesDelete :execrows
-- Deletes the model inferences read from an erased event (rebuilds keep inferences otherwise).
DELETE FROM inferences WHERE space_id = $1 AND seq = $2;
