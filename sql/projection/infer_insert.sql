-- Stores what a model inferred from one event.
INSERT INTO inferences (space_id, seq, model, hash, triples)
VALUES ($1, $2, $3, $4, $5::jsonb)
ON CONFLICT (space_id, seq, model) DO NOTHING
