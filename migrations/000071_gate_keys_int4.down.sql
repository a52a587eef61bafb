-- The gate's band keys as bigints again. Only their first 4 bytes were kept, so they come back
-- as those bytes followed by zeros, which no key the earlier projector computes equals: items
-- projected before the down migration are no longer candidates (a repeat of one is ranked as
-- novel) until `zaxy rebuild --space S` recomputes the space's keys.
CREATE TABLE gate_keys_w (
  space_key int4   NOT NULL,
  key       bigint NOT NULL,
  seq       bigint NOT NULL
);
INSERT INTO gate_keys_w (space_key, key, seq)
SELECT g.space_key, g.key::bigint << 32, g.seq
FROM gate_keys g
ORDER BY 1, 2, 3;
DROP TABLE gate_keys;
ALTER TABLE gate_keys_w RENAME TO gate_keys;
ALTER TABLE gate_keys ADD CONSTRAINT gate_keys_pkey PRIMARY KEY (space_key, key, seq);
COMMENT ON TABLE gate_keys IS 'Encoding gate: the MinHash band keys (8 bytes, as bigint) of every ranked event item (ev:<seq>) it looked at while on, by spaces.space_key.';

REVOKE ALL ON gate_keys FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON gate_keys TO zaxy_app;
  END IF;
END $$;
