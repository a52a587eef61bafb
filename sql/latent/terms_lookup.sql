-- The vectors of the given lexemes ($2) in the space's model.
SELECT lexeme, vec FROM latent_terms WHERE space_id = $1 AND lexeme = ANY($2::text[])
