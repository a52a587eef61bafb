-- Stores a model's term vectors ($2 lexemes, $3 scales, $4 8-bit codes: component i is
-- scale × the signed byte q8[i], migration 000062), in the primary key's order so a new
-- space's terms fill the index's pages instead of splitting them in the middle.
INSERT INTO latent_terms (space_key, lexeme, scale, q8)
SELECT (SELECT s.space_key FROM spaces s WHERE s.space_id = $1), u.lexeme, u.scale, u.q8
FROM unnest($2::text[], $3::real[], $4::bytea[]) AS u(lexeme, scale, q8)
ORDER BY u.lexeme
