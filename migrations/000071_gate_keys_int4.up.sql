-- Storage (docs/benchmarks.md, "Session 29: the gate's keys in four bytes"): each encoding-gate
-- band key is the first 4 bytes of its SHA-256 (an int4) instead of 8, so a gate_keys row is
-- (space_key int4, key int4, seq int8): 16 bytes of data instead of 24 (space_key was padded to
-- 8 before the bigint), in the heap and in every primary-key entry. A 4-byte key of one band
-- collides with another's about once in 4 billion, and a collision only adds a candidate the
-- gate then compares exactly. The existing keys keep their first 4 bytes (key >> 32, the
-- big-endian prefix the projector now computes), so earlier items stay candidates; two keys of
-- one item with the same prefix become one row. The projector now also gives each ranked item
-- a sequence key (its words in order), which SQL cannot compute as it does: items projected
-- before this migration have none, so a verbatim repeat of one is found through its band keys
-- only (among the latest 32 under each) until `zaxy rebuild --space S` recomputes the space.
CREATE TABLE gate_keys_n (
  space_key int4   NOT NULL,
  key       int4   NOT NULL,
  seq       bigint NOT NULL
);
INSERT INTO gate_keys_n (space_key, key, seq)
SELECT DISTINCT g.space_key, (g.key >> 32)::int4, g.seq
FROM gate_keys g
ORDER BY 1, 2, 3;
DROP TABLE gate_keys;
ALTER TABLE gate_keys_n RENAME TO gate_keys;
ALTER TABLE gate_keys ADD CONSTRAINT gate_keys_pkey PRIMARY KEY (space_key, key, seq);
COMMENT ON TABLE gate_keys IS 'Encoding gate: the MinHash band keys (the first 4 bytes of each band''s SHA-256, as int4) of every ranked event item (ev:<seq>) it looked at while on, by spaces.space_key.';

REVOKE ALL ON gate_keys FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON gate_keys TO zaxy_app;
  END IF;
END $$;
