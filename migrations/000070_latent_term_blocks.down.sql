-- The topic term vectors a row a term again, (space_key, lexeme), from their blocks: each
-- vector's scale and its codes, one signed byte each (a 6-bit code as it is: the same vector,
-- component i = scale × q8[i]).
CREATE TABLE latent_terms_r (
  space_key int4  NOT NULL,
  scale     real  NOT NULL,
  lexeme    text  NOT NULL,
  q8        bytea NOT NULL
);
INSERT INTO latent_terms_r (space_key, scale, lexeme, q8)
SELECT b.space_key, t.scale, t.lexeme, t.q8
FROM latent_terms b CROSS JOIN LATERAL zaxy_latent_block_terms(b.block) t
ORDER BY 1, 3;
DROP TABLE latent_terms;
DROP FUNCTION zaxy_latent_block_terms(bytea);
ALTER TABLE latent_terms_r RENAME TO latent_terms;
ALTER TABLE latent_terms ADD CONSTRAINT latent_terms_pkey PRIMARY KEY (space_key, lexeme);
COMMENT ON TABLE latent_terms IS 'Topic model: each lexeme''s idf-weighted term vector, component i = scale × the signed byte q8[i], by spaces.space_key.';

REVOKE ALL ON latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON latent_terms TO zaxy_app;
  END IF;
END $$;
