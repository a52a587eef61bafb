-- Reverses 000060_gate_keys.up.sql: one gate_items row per event item holding its keys as 8-byte
-- bytea, under the GIN on (space_id, keys).
CREATE TABLE gate_items (
  space_id text NOT NULL,
  item_id  text NOT NULL,
  seq      bigint NOT NULL,
  keys     bytea[] NOT NULL,
  PRIMARY KEY (space_id, item_id)
);

INSERT INTO gate_items (space_id, item_id, seq, keys)
SELECT space_id, 'ev:' || seq, seq, array_agg(int8send(key) ORDER BY int8send(key))
FROM gate_keys
GROUP BY space_id, seq;

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
