-- Stores what a model inferred from one event, unless the event was erased meanwhile (the
-- caller holds the space's erasure lock shared, sql/erasure/lock_shared.sql).
INSERT INTO inferences (space_id, seq, model, hash, triples)
SELECT $1, $2, $3, $4, $5::jsonb
WHERE EXISTS (SELECT FROM events e WHERE e.space_id = $1 AND e.seq = $2 AND e.erased_by_seq IS NULL)
ON CONFLICT (space_id, seq, model) DO NOTHING
