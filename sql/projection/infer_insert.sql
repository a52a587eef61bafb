-- name: InferInsert :execrows
-- Stores what a model inferred from one event, unless the event was erased meanwhile (the
-- caller holds the space's erasure lock shared, sql/eventloom/erasure_lock_shared.sql).
INSERT INTO inferences (space_id, seq, model, hash, triples)
SELECT @space_id, @seq, @model, @hash, @triples::jsonb
WHERE EXISTS (SELECT FROM events e WHERE e.space_id = @space_id AND e.seq = @seq AND e.erased_by_seq IS NULL)
ON CONFLICT (space_id, seq, model) DO NOTHING;
