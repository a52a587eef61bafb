-- Reverses 000061_storage.up.sql: one gate_keys row per (key, item) again. The keys stay 8
-- bytes long; a rebuild of a space with the gate on writes them as the binary of the time does.
CREATE TABLE gate_keys (
  space_id text NOT NULL,
  key      bytea NOT NULL,
  item_id  text NOT NULL,
  seq      bigint NOT NULL,
  PRIMARY KEY (space_id, key, item_id)
);

INSERT INTO gate_keys (space_id, key, item_id, seq)
SELECT g.space_id, k.key, g.item_id, g.seq
FROM gate_items g, unnest(g.keys) AS k(key);

DROP TABLE gate_items;

REVOKE ALL ON gate_keys FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys TO zaxy_app;
  END IF;
END $$;
