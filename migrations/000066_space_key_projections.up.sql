-- Storage (docs/benchmarks.md, "Projections keyed by the space key"): gate_keys and latent_terms
-- key on the space's 4-byte spaces.space_key (migration 000064) instead of its text id (up to 64
-- bytes) in every row and index entry. Their queries keep taking the text id and resolve the
-- key in SQL (`space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, one InitPlan);
-- a space without a spaces row has no rows here. Both tables are rewritten in key order and
-- their primary keys built after the load, so the indexes come out packed. latent_terms no
-- longer references latent_models: the erasure's latent drop and the topic rebuild's clear
-- delete a space's terms themselves.
CREATE TABLE gate_keys_k (
  space_key int4   NOT NULL,
  key       bigint NOT NULL,
  seq       bigint NOT NULL
);
INSERT INTO gate_keys_k (space_key, key, seq)
SELECT s.space_key, g.key, g.seq
FROM gate_keys g JOIN spaces s USING (space_id)
ORDER BY 1, 2, 3;
DROP TABLE gate_keys;
ALTER TABLE gate_keys_k RENAME TO gate_keys;
ALTER TABLE gate_keys ADD CONSTRAINT gate_keys_pkey PRIMARY KEY (space_key, key, seq);
COMMENT ON TABLE gate_keys IS 'Encoding gate: the MinHash band keys (8 bytes, as bigint) of every ranked event item (ev:<seq>) it looked at while on, by spaces.space_key.';

-- scale (4-byte aligned) next to space_key, so the row has no padding before the varlenas.
CREATE TABLE latent_terms_k (
  space_key int4  NOT NULL,
  scale     real  NOT NULL,
  lexeme    text  NOT NULL,
  q8        bytea NOT NULL
);
INSERT INTO latent_terms_k (space_key, scale, lexeme, q8)
SELECT s.space_key, t.scale, t.lexeme, t.q8
FROM latent_terms t JOIN spaces s USING (space_id)
ORDER BY 1, 3;
DROP TABLE latent_terms;
ALTER TABLE latent_terms_k RENAME TO latent_terms;
ALTER TABLE latent_terms ADD CONSTRAINT latent_terms_pkey PRIMARY KEY (space_key, lexeme);
COMMENT ON TABLE latent_terms IS 'Topic model: each lexeme''s idf-weighted term vector, component i = scale × the signed byte q8[i], by spaces.space_key.';

REVOKE ALL ON gate_keys, latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys, latent_terms TO zaxy_app;
  END IF;
END $$;
