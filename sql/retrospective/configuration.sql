-- name: RetrospectiveConfiguration :many
-- The data of the space's latest retrospective.configured before seq (at most one row): how
-- the pass records the judgements of the outcome at seq (docs/latent.md, "Review of the pass's
-- judgements"). Walks the space's events back from seq by primary key; the pass runs once per
-- outcome, off the request path.
SELECT data::text AS data
FROM events
WHERE space_id = @space_id AND seq < @before_seq AND type = 'retrospective.configured'
ORDER BY seq DESC
LIMIT 1;
