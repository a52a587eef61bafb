-- The encoding gate's band keys become one row per (key, event item) again, the key an 8-byte
-- bigint and the item its seq (the ranked event item of seq is ev:<seq>), under a btree on
-- (space_id, key, seq). A batch looks up its thousands of keys with key = ANY(...) as index
-- conditions, one descent per key. The one-row-per-item form before it (gate_items, keys in a
-- GIN on (space_id, keys)) was smaller, but every plan for its lookup compared each candidate
-- row against the whole key list: a batch took seconds on a space of 20,000 items
-- (docs/benchmarks.md, "The encoding gate's key lookup").
CREATE TABLE gate_keys (
  space_id text NOT NULL,
  key      bigint NOT NULL,
  seq      bigint NOT NULL,
  PRIMARY KEY (space_id, key, seq)
);

INSERT INTO gate_keys (space_id, key, seq)
SELECT DISTINCT g.space_id, ('x' || encode(k.key, 'hex'))::bit(64)::bigint, g.seq
FROM gate_items g, unnest(g.keys) AS k(key);

DROP TABLE gate_items;

COMMENT ON TABLE gate_keys IS 'Encoding gate: the MinHash band keys (8 bytes, as bigint) of every ranked event item (ev:<seq>) it looked at while on.';

REVOKE ALL ON gate_keys FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys TO zaxy_app;
  END IF;
END $$;
