-- A query's lexemes ($2 text, $3 text search configuration) with their frequencies, each with
-- the block of the space's model ($1) that would hold its vector: the block with the greatest
-- first lexeme not after it (topic/block.go; one backward probe of the primary key). Lexemes
-- before the first block are left out, and the block need not hold the lexeme (then the model
-- does not know it).
SELECT q.lexeme, coalesce(cardinality(q.positions), 1)::int AS count, b.block
FROM unnest(zaxy_path_tsv($3::regconfig, $2)) q
CROSS JOIN LATERAL (
  SELECT t.block FROM latent_terms t
  WHERE t.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = $1) AND t.first_lexeme <= q.lexeme COLLATE "C"
  ORDER BY t.first_lexeme DESC
  LIMIT 1) b
