-- name: TermsLookup :many
-- The vectors of the given lexemes ($2) in the space's model.
SELECT lexeme, vec::vector AS vec FROM latent_terms WHERE space_id = @space_id AND lexeme = ANY(@lexemes::text[]);
