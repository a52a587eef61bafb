-- name: TermsLookup :many
-- The vectors of the given lexemes ($2) in the space's model: 8-bit codes and their scale
-- (component i is scale × the signed byte q8[i]).
SELECT t.lexeme, t.scale, t.q8 FROM latent_terms t
WHERE t.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id) AND t.lexeme = ANY(@lexemes::text[]);
