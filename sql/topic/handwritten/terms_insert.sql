-- Stores a model's term vectors in blocks ($2 each block's first lexeme, $3 its bytes,
-- topic/block.go), in the primary key's order so a new space's blocks fill the index's pages
-- instead of splitting them in the middle.
INSERT INTO latent_terms (space_key, first_lexeme, block)
SELECT (SELECT s.space_key FROM spaces s WHERE s.space_id = $1), u.first_lexeme, u.block
FROM unnest($2::text[], $3::bytea[]) AS u(first_lexeme, block)
ORDER BY u.first_lexeme COLLATE "C"
