-- name: ProposalsLoad :many
-- The proposals a batch may change: those named by seq (decided, or cited by an accepted
-- fact), and every proposal contesting the same facts as those or as the facts named
-- (so the projector knows whether a fact stays conflicted when one proposal is decided).
SELECT seq, hash, kind, status, proposed_by, proposed_at, confidence, evidence::text AS evidence,
       coalesce(fact::text, '')::text AS fact, contradicts, inference_seq, inference_model, inference_ordinal, rationale,
       decided_seq, decided_by, decided_at, reason, fact_id
FROM proposals p
WHERE p.space_id = @space_id
  AND (p.seq = ANY (@seqs::bigint[])
       OR p.contradicts = ANY (@fact_ids::text[])
       OR p.contradicts IN (SELECT x.contradicts FROM proposals x
                            WHERE x.space_id = @space_id AND x.seq = ANY (@seqs::bigint[])));
