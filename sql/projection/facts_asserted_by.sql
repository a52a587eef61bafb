-- name: FactsAssertedBy :many
-- The fact versions each of the events (seqs) asserted, whatever their status now: feedback on
-- an event counts for the facts it asserted (docs/projections.md, "Reinforcement and salience").
SELECT recorded_seq, fact_id
FROM facts
WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND recorded_seq = ANY (@seqs::bigint[])
ORDER BY recorded_seq, fact_id;
