-- Stores a model's term vectors ($2 lexemes, $3 vectors in pgvector's text form), in half
-- precision (migration 000049).
INSERT INTO latent_terms (space_id, lexeme, vec)
SELECT $1, u.lexeme, u.vec::halfvec
FROM unnest($2::text[], $3::vector[]) AS u(lexeme, vec)
