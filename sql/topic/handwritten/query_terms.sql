-- A query's lexemes ($2 text, $3 text search configuration) with their frequencies and their
-- vectors in the space's model ($1), as 8-bit codes and their scale; lexemes the model does
-- not know are left out.
SELECT q.lexeme, coalesce(cardinality(q.positions), 1)::int AS count, t.scale, t.q8
FROM unnest(zaxy_path_tsv($3::regconfig, $2)) q
JOIN latent_terms t ON t.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = $1) AND t.lexeme = q.lexeme
ORDER BY q.lexeme
