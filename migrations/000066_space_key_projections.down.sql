-- gate_keys, latent_terms and mentions keyed by the space's text id again, latent_terms
-- referencing latent_models (its terms cascading with the model) and mentions entities; rows
-- those references would refuse (terms without a model row, mentions without their entity)
-- are left out.
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

DROP VIEW memory.entity_timeline;
CREATE TABLE mentions_t (
  space_id   text    NOT NULL,
  seq        bigint  NOT NULL,
  start_byte integer NOT NULL,
  end_byte   integer NOT NULL,
  entity_id  text    NOT NULL,
  kind       text    NOT NULL,
  CONSTRAINT mentions_range CHECK (end_byte > start_byte)
);
INSERT INTO mentions_t (space_id, seq, start_byte, end_byte, entity_id, kind)
SELECT s.space_id, m.seq, m.start_byte, m.end_byte, m.entity_id, m.kind
FROM mentions m JOIN spaces s USING (space_key) JOIN entities e ON e.space_id = s.space_id AND e.entity_id = m.entity_id
ORDER BY 1, 2, 3;
DROP TABLE mentions;
ALTER TABLE mentions_t RENAME TO mentions;
ALTER TABLE mentions ADD CONSTRAINT mentions_pkey PRIMARY KEY (space_id, seq, start_byte);
ALTER TABLE mentions ADD CONSTRAINT mentions_space_id_entity_id_fkey FOREIGN KEY (space_id, entity_id) REFERENCES entities (space_id, entity_id);
CREATE INDEX mentions_entity ON mentions (space_id, entity_id, seq);

CREATE VIEW memory.entity_timeline AS
SELECT e.space_id, e.entity_id, e.name AS entity, m.seq, ev.occurred_at, 'mention'::text AS what,
       substr(ev.content, m.start_byte + 1, m.end_byte - m.start_byte) AS detail
FROM entities e
JOIN mentions m ON m.space_id = e.space_id AND m.entity_id = e.entity_id
JOIN events ev ON ev.space_id = m.space_id AND ev.seq = m.seq
UNION ALL
SELECT e.space_id, e.entity_id, e.name, f.recorded_seq, f.valid_from,
       'fact ' || f.status, f.predicate || ' ' || coalesce(o.name, f.value #>> '{}')
FROM entities e
JOIN facts f ON f.space_id = e.space_id AND f.subject_id = e.entity_id
LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id;

REVOKE ALL ON gate_keys, latent_terms, mentions FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys, latent_terms, mentions TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.entity_timeline TO zaxy_analyst;
  END IF;
END $$;
