-- name: FactClaimsLoad :many
-- What the reinforcement ledger says of the fact items a batch may contradict: whether each is
-- pinned, and its helpful and negative (unhelpful, wrong, outdated) feedback counts, for
-- review.Precedence (docs/projections.md, "Interference").
SELECT item_id, pinned, helpful, (unhelpful + wrong + outdated)::int AS negative
FROM salience
WHERE space_id = @space_id AND item_id = ANY (@item_ids::text[]);
