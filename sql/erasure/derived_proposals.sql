-- name: DerivedProposals :many
-- The proposals interference detection derived from an event (data.inference.seq names it)
-- that are not erased yet: they repeat what a model read in the event, so they go with it.
SELECT seq FROM events
WHERE space_id = @space_id AND type = 'proposal.created' AND erased_by_seq IS NULL
  AND data->'inference'->'seq' = to_jsonb(@seq::bigint)
ORDER BY seq;
