-- name: TermsLookup :many
-- The vectors of the given lexemes ($2) in the space's model: 8-bit codes and their scale
-- (component i is scale × the signed byte q8[i]).
SELECT lexeme, scale, q8 FROM latent_terms WHERE space_id = @space_id AND lexeme = ANY(@lexemes::text[]);
