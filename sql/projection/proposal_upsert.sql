-- name: ProposalUpsert :exec
-- Writes one proposal row as the batch left it (queued in the batch's pgx.Batch).
INSERT INTO proposals (space_id, seq, hash, kind, status, proposed_by, proposed_at, confidence, evidence,
                       fact, contradicts, inference_seq, inference_model, inference_ordinal, rationale,
                       decided_seq, decided_by, decided_at, reason, fact_id)
VALUES (@space_id, @seq, @hash, @kind, @status, @proposed_by, @proposed_at, @confidence, (@evidence::text)::jsonb,
        (sqlc.narg(fact)::text)::jsonb, @contradicts, @inference_seq, @inference_model, @inference_ordinal, @rationale,
        @decided_seq, @decided_by, @decided_at, @reason, @fact_id)
ON CONFLICT (space_id, seq) DO UPDATE
SET status = excluded.status, decided_seq = excluded.decided_seq, decided_by = excluded.decided_by,
    decided_at = excluded.decided_at, reason = excluded.reason, fact_id = excluded.fact_id;
