-- name: ProposalGet :one
-- One proposal of a space by the seq of its proposal.created event.
-- A proposal erased (or derived from an erased event) whose purge is pending
-- (zaxy_erased_pending, migration 000054) is left out: its row still holds what it said.
SELECT seq, hash, kind, status, proposed_by, proposed_at, confidence, evidence::text AS evidence,
       coalesce(fact::text, '')::text AS fact, contradicts, inference_seq, inference_model, inference_ordinal,
       rationale, decided_seq, decided_by, decided_at, reason, fact_id
FROM proposals
WHERE space_id = @space_id AND seq = @seq AND seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[]);
