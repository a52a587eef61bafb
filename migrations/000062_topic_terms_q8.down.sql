-- Reverses 000062_topic_terms_q8.up.sql: the term vectors in half precision again, each
-- component scale × its signed byte (the values the codes kept).
CREATE TABLE latent_terms_half (
  space_id text NOT NULL REFERENCES latent_models ON DELETE CASCADE,
  lexeme   text NOT NULL,
  vec      halfvec NOT NULL,
  PRIMARY KEY (space_id, lexeme)
);

INSERT INTO latent_terms_half (space_id, lexeme, vec)
SELECT t.space_id, t.lexeme,
       (SELECT array_agg(t.scale * (CASE WHEN b > 127 THEN b - 256 ELSE b END)::real ORDER BY i)
        FROM generate_series(0, length(t.q8) - 1) AS i, LATERAL get_byte(t.q8, i) AS b)::vector::halfvec
FROM latent_terms t;

DROP TABLE latent_terms;
ALTER TABLE latent_terms_half RENAME TO latent_terms;
ALTER INDEX latent_terms_half_pkey RENAME TO latent_terms_pkey;
ALTER TABLE latent_terms RENAME CONSTRAINT latent_terms_half_space_id_fkey TO latent_terms_space_id_fkey;

REVOKE ALL ON latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON latent_terms TO zaxy_app;
  END IF;
END $$;
