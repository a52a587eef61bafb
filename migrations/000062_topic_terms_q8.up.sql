-- Storage (docs/benchmarks.md, "Storage per event"): the topic model's term vectors as 8-bit
-- codes with one scale per term (component i is scale × the signed byte q8[i], scale the
-- largest magnitude over 127) instead of half precision: a 143-dimension term is 147 bytes
-- instead of 294. The topic lane sums a query's term vectors and ranks sessions by cosine; Go
-- encodes and decodes the codes (topic/quant.go). A projection: rebuilt from the log like the
-- rest. The conversion here rounds as Go does (half away from zero, scale computed in double
-- precision and stored as real); it takes about 0.5 ms a term under load (docs/operations.md).
CREATE TABLE latent_terms_q8 (
  space_id text NOT NULL REFERENCES latent_models ON DELETE CASCADE,
  lexeme   text NOT NULL,
  scale    real NOT NULL,
  q8       bytea NOT NULL,
  PRIMARY KEY (space_id, lexeme)
);

INSERT INTO latent_terms_q8 (space_id, lexeme, scale, q8)
SELECT t.space_id, t.lexeme, s.scale,
       (SELECT string_agg(set_byte('\x00'::bytea, 0, (CASE WHEN s.scale = 0 THEN 0
                 ELSE greatest(-127, least(127, sign(u.x) * floor(abs(u.x::float8 / s.scale::float8) + 0.5)))::int END + 256) % 256),
               '' ORDER BY u.i)
        FROM unnest(t.vec::vector::real[]) WITH ORDINALITY AS u(x, i))
FROM latent_terms t
CROSS JOIN LATERAL (SELECT (max(abs(x))::float8 / 127)::real AS scale FROM unnest(t.vec::vector::real[]) AS x) s;

DROP TABLE latent_terms;
ALTER TABLE latent_terms_q8 RENAME TO latent_terms;
ALTER INDEX latent_terms_q8_pkey RENAME TO latent_terms_pkey;
ALTER TABLE latent_terms RENAME CONSTRAINT latent_terms_q8_space_id_fkey TO latent_terms_space_id_fkey;

COMMENT ON TABLE latent_terms IS 'Topic model: each lexeme''s idf-weighted term vector, component i = scale × the signed byte q8[i].';

REVOKE ALL ON latent_terms FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON latent_terms TO zaxy_app;
  END IF;
END $$;
