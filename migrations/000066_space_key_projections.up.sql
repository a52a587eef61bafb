-- Storage (docs/benchmarks.md, "Projections keyed by the space key"): gate_keys, latent_terms
-- and mentions key on the space's 4-byte spaces.space_key (migration 000064) instead of its text id (up to 64
-- bytes) in every row and index entry. Their queries keep taking the text id and resolve the
-- key in SQL (`space_key = (SELECT space_key FROM spaces WHERE space_id = $1)`, one InitPlan);
-- a space without a spaces row has no rows here. The tables are rewritten in key order and
-- their indexes built after the load, so they come out packed. latent_terms no longer
-- references latent_models (the erasure's latent drop and the topic rebuild's clear delete a
-- space's terms themselves), nor mentions entities (keyed by the text id; the projection
-- writes an entity before its mentions and discards mentions before entities). The analyst
-- view memory.entity_timeline joins mentions through spaces and keeps its columns.
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

-- Columns ordered so the row has no alignment padding: two int4, the int8, an int4, then
-- the varlenas.
DROP VIEW memory.entity_timeline;
CREATE TABLE mentions_k (
  space_key  int4   NOT NULL,
  start_byte int4   NOT NULL,
  seq        bigint NOT NULL,
  end_byte   int4   NOT NULL,
  entity_id  text   NOT NULL,
  kind       text   NOT NULL,
  CONSTRAINT mentions_range CHECK (end_byte > start_byte)
);
INSERT INTO mentions_k (space_key, start_byte, seq, end_byte, entity_id, kind)
SELECT s.space_key, m.start_byte, m.seq, m.end_byte, m.entity_id, m.kind
FROM mentions m JOIN spaces s USING (space_id)
ORDER BY s.space_key, m.seq, m.start_byte;
DROP TABLE mentions;
ALTER TABLE mentions_k RENAME TO mentions;
ALTER TABLE mentions ADD CONSTRAINT mentions_pkey PRIMARY KEY (space_key, seq, start_byte);
CREATE INDEX mentions_entity ON mentions (space_key, entity_id, seq);
COMMENT ON TABLE mentions IS 'Entity mentions: the byte range of each entity an event''s text names, by spaces.space_key.';

-- What happened to each entity, in log order: mentions and fact versions.
CREATE VIEW memory.entity_timeline AS
SELECT e.space_id, e.entity_id, e.name AS entity, m.seq, ev.occurred_at, 'mention'::text AS what,
       substr(ev.content, m.start_byte + 1, m.end_byte - m.start_byte) AS detail
FROM entities e
JOIN spaces sp ON sp.space_id = e.space_id
JOIN mentions m ON m.space_key = sp.space_key AND m.entity_id = e.entity_id
JOIN events ev ON ev.space_id = e.space_id AND ev.seq = m.seq
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
