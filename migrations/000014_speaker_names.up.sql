-- The names that speak in a space (docs/checkout.md, docs/projections.md): the actor or
-- data.name of its events, lower-cased. The exact lane never matches an entity whose key is
-- one of them (a speaker's name says who talked, not what about); reading them from this
-- table by key replaces a scan of the space's latest events on every checkout.
--
-- Written only by the projector, which holds the space's watermark lock, in the transaction
-- that applies the events (sql/projection/speakers_insert.sql); discarded and replayed by a
-- rebuild and covered by the projection checksum.
CREATE TABLE speaker_names (
  space_id text NOT NULL,
  name_key text NOT NULL,
  -- events: how many of the space's projected events carry the name as actor or data.name.
  events   integer NOT NULL CONSTRAINT speaker_names_events CHECK (events > 0),
  PRIMARY KEY (space_id, name_key)
);

-- The speakers of the events already projected.
INSERT INTO speaker_names (space_id, name_key, events)
SELECT e.space_id, lower(v.name), count(DISTINCT e.seq)
FROM projection_watermarks w
JOIN events e ON e.space_id = w.space_id AND e.seq <= w.projected_seq,
     LATERAL (VALUES (e.actor), (e.data->>'name')) v (name)
WHERE v.name IS NOT NULL AND v.name <> ''
GROUP BY e.space_id, lower(v.name);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON speaker_names TO zaxy_app;
  END IF;
END $$;
