-- Storage (docs/benchmarks.md, "Storage per event"): the encoding gate's MinHash band keys
-- become one row per ranked event item instead of one per (key, item). gate_items holds each
-- item's eight band keys, 8 bytes each (the first 8 bytes of the 16 kept before: a collision
-- only adds a candidate, which the gate then compares word by word), found by a GIN index on
-- (space_id, keys), which stores every key once with a compressed list of the rows holding it.
-- The old table repeated the space id and item id in the heap and its primary key for every key.
CREATE TABLE gate_items (
  space_id text NOT NULL,
  item_id  text NOT NULL,
  seq      bigint NOT NULL,
  keys     bytea[] NOT NULL,
  PRIMARY KEY (space_id, item_id)
);

INSERT INTO gate_items (space_id, item_id, seq, keys)
SELECT space_id, item_id, min(seq), array_agg(DISTINCT substring(key FROM 1 FOR 8) ORDER BY substring(key FROM 1 FOR 8))
FROM gate_keys
GROUP BY space_id, item_id;

CREATE INDEX gate_items_keys ON gate_items USING gin (space_id, keys);

DROP TABLE gate_keys;

COMMENT ON TABLE gate_items IS 'Encoding gate: the MinHash band keys (8 bytes each) of every ranked event item it looked at while on.';

REVOKE ALL ON gate_items FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_items TO zaxy_app;
  END IF;
END $$;
