-- name: TermsLookup :many
-- The blocks of the space's model ($1) that would hold the given lexemes ($2): for each, the
-- block with the greatest first lexeme not after it (topic/block.go), each block once.
SELECT t.block FROM latent_terms t
WHERE t.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)
  AND t.first_lexeme IN (
    SELECT (SELECT b.first_lexeme FROM latent_terms b
            WHERE b.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)
              AND b.first_lexeme <= l.lexeme COLLATE "C"
            ORDER BY b.first_lexeme DESC LIMIT 1)
    FROM unnest(@lexemes::text[]) AS l(lexeme));
