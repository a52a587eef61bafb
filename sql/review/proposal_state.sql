-- name: ProposalState :one
-- Whether the event at @seq is a proposal and whether it is still open, read from the log so
-- that a decision never trusts a lagging projection: the projected status for what the
-- projector has applied, and the first accept or reject after the watermark for the rest.
-- Run under the space's chain lock, so no decision can commit between this read and the append.
-- derived_fact is non-empty when the projector derived a belief_update proposal from a typed statement
-- at @seq (a fact.asserted or preference.stated that contradicts a pinned or endorsed fact;
-- docs/projections.md, "Interference"): the fact accepting it asserts.
WITH w AS (
  SELECT coalesce((SELECT projected_seq FROM projection_watermarks WHERE space_id = @space_id), 0) AS wm
)
SELECT e.type, e.data::text AS data, (e.erased_by_seq IS NOT NULL)::boolean AS erased,
       coalesce((SELECT p.status FROM proposals p WHERE p.space_id = @space_id AND p.seq = @seq), 'pending')::text AS projected_status,
       coalesce((SELECT t.type FROM events t, w
                 WHERE t.space_id = @space_id AND t.seq > greatest(w.wm, @seq::bigint)
                   AND t.type IN ('proposal.accepted', 'proposal.rejected')
                   AND t.data->'proposal_seq' = to_jsonb(@seq::bigint)
                 ORDER BY t.seq LIMIT 1), '')::text AS tail_decision,
       coalesce((SELECT p.fact::text FROM proposals p
                 WHERE p.space_id = @space_id AND p.seq = @seq AND e.type <> 'proposal.created'), '')::text AS derived_fact
FROM events e
WHERE e.space_id = @space_id AND e.seq = @seq;
