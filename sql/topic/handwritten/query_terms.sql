-- A query's lexemes ($2 text, $3 text search configuration) with their frequencies, grouped by
-- the block of the space's model ($1) that would hold them (the block with the greatest first
-- lexeme not after the lexeme, topic/block.go), each block once; lexemes before the first
-- block are left out, and a block need not hold every lexeme sent with it.
WITH k AS MATERIALIZED (SELECT s.space_key FROM spaces s WHERE s.space_id = $1),
q AS (
  SELECT q.lexeme, coalesce(cardinality(q.positions), 1)::int AS count,
         (SELECT b.first_lexeme FROM latent_terms b
          WHERE b.space_key = (SELECT k.space_key FROM k) AND b.first_lexeme <= q.lexeme COLLATE "C"
          ORDER BY b.first_lexeme DESC LIMIT 1) AS first_lexeme
  FROM unnest(zaxy_path_tsv($3::regconfig, $2)) q
)
SELECT array_agg(q.lexeme ORDER BY q.lexeme)::text[] AS lexemes, array_agg(q.count ORDER BY q.lexeme)::int[] AS counts, t.block
FROM q
JOIN latent_terms t ON t.space_key = (SELECT k.space_key FROM k) AND t.first_lexeme = q.first_lexeme
GROUP BY t.space_key, t.first_lexeme
