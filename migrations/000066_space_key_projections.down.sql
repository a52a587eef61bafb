-- gate_keys and latent_terms keyed by the space's text id again (latent_terms referencing
-- latent_models, its terms cascading with the model; terms of a space without a model row are
-- left out, as that reference allowed none).
CREATE TABLE gate_keys_t (
  space_id text   NOT NULL,
  key      bigint NOT NULL,
  seq      bigint NOT NULL
);
INSERT INTO gate_keys_t (space_id, key, seq)
SELECT s.space_id, g.key, g.seq
FROM gate_keys g JOIN spaces s USING (space_key)
ORDER BY 1, 2, 3;
DROP TABLE gate_keys;
ALTER TABLE gate_keys_t RENAME TO gate_keys;
ALTER TABLE gate_keys ADD CONSTRAINT gate_keys_pkey PRIMARY KEY (space_id, key, seq);
COMMENT ON TABLE gate_keys IS 'Encoding gate: the MinHash band keys (8 bytes, as bigint) of every ranked event item (ev:<seq>) it looked at while on.';

CREATE TABLE latent_terms_t (
  space_id text  NOT NULL,
  lexeme   text  NOT NULL,
  scale    real  NOT NULL,
  q8       bytea NOT NULL
);
INSERT INTO latent_terms_t (space_id, lexeme, scale, q8)
SELECT s.space_id, t.lexeme, t.scale, t.q8
FROM latent_terms t JOIN spaces s USING (space_key) JOIN latent_models m ON m.space_id = s.space_id
ORDER BY 1, 2;
DROP TABLE latent_terms;
ALTER TABLE latent_terms_t RENAME TO latent_terms;
ALTER TABLE latent_terms ADD CONSTRAINT latent_terms_pkey PRIMARY KEY (space_id, lexeme);
ALTER TABLE latent_terms ADD CONSTRAINT latent_terms_space_id_fkey FOREIGN KEY (space_id) REFERENCES latent_models ON DELETE CASCADE;
COMMENT ON TABLE latent_terms IS 'Topic model: each lexeme''s idf-weighted term vector, component i = scale × the signed byte q8[i].';

REVOKE ALL ON gate_keys, latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys, latent_terms TO zaxy_app;
  END IF;
END $$;
