-- The write-time encoding gate (docs/projections.md, "Encoding gate"): at projection time each
-- new memory item is classified against what its space already holds as novel, reinforcing or
-- redundant. Projection policy over the unchanged log, off by default: switched per space by
-- gate.configured events (server default ZAXY_GATE), rebuilt by replay and covered by the
-- projection checksum. With the gate off nothing here is written, and the projection is the one
-- before this migration byte for byte.

-- A redundant item names the ranked item it repeats; it stays in memory_items (replay, explicit
-- recall with include_attenuated) but leaves default ranking. NULL for every ranked item.
ALTER TABLE memory_items ADD COLUMN redundant_of text;

-- The gate's keys of each ranked event item whose text it looked at: one exact key (the
-- item's normalized word sequence) and its MinHash band keys (near duplicates), each scoped by
-- the event type and actor. A new item is compared with the earlier ranked items sharing a key.
-- Written only by the projector under the watermark lock; discarded and replayed by a rebuild.
CREATE TABLE gate_keys (
  space_id text NOT NULL,
  key      bytea NOT NULL,
  item_id  text NOT NULL,
  seq      bigint NOT NULL,
  PRIMARY KEY (space_id, key, item_id)
);

-- The space's gate setting (the latest gate.configured); no row: the server default.
CREATE TABLE gate_spaces (
  space_id       text PRIMARY KEY,
  enabled        boolean NOT NULL,
  configured_seq bigint NOT NULL
);

-- A repetition is a signal of its own: the item a redundant item repeats, or the current fact a
-- typed assertion restates, is reinforced with signal repeated.
ALTER TABLE reinforcements DROP CONSTRAINT reinforcements_signal;
ALTER TABLE reinforcements ADD CONSTRAINT reinforcements_signal CHECK (signal IN
  ('surfaced', 'recalled', 'helpful', 'unhelpful', 'wrong', 'outdated', 'invalidated', 'pinned', 'unpinned', 'repeated'));

ALTER TABLE salience ADD COLUMN repeated integer NOT NULL DEFAULT 0;

-- The reinforcement multiplier with repetitions: zaxy_salience_reinforcement's product times
-- (1 + 0.02 per repetition, at most 5 counted), clamped to [0.05, 1.5]. Weak on purpose: saying
-- a thing again is evidence it matters, not that it answers the next question. With no
-- repetitions the factor is exactly 1, so the value is zaxy_salience_reinforcement's bit for bit.
CREATE FUNCTION zaxy_salience_reinforcement(surfaced integer, helpful integer, unhelpful integer,
                                            wrong integer, outdated integer, invalidated integer,
                                            repeated integer)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN greatest(0.05, least(1.5,
  (1 + 0.01 * least(surfaced, 5)) * (1 + 0.05 * least(helpful, 5)) * power(0.7, unhelpful) * power(0.4, wrong)
  * power(0.5, outdated) * power(0.5, invalidated) * (1 + 0.02 * least(repeated, 5))));

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys, gate_spaces TO zaxy_app;
  END IF;
END $$;
