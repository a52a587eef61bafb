-- Stores a model's term vectors ($2 lexemes, $3 vectors in pgvector's text form).
INSERT INTO latent_terms (space_id, lexeme, vec)
SELECT $1, u.lexeme, u.vec
FROM unnest($2::text[], $3::vector[]) AS u(lexeme, vec)
