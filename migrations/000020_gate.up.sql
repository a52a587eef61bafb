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

-- Salience for analysts (docs/sql-cookbook.md): every memory item with the components of its
-- salience as of now() (the view reads the clock, as checkout does with its as_of; decay counts
-- whole days), whether it is attenuated, pinned or exempt, its ledger counts, its last use, and
-- the encoding gate's redundant_of. salience and attenuated are what checkout computes (nine
-- decimals); redundant items leave default ranking whatever their salience.
CREATE VIEW memory.salience AS
SELECT x.space_id, x.item_id, x.kind, x.seq, x.event_type, x.occurred_at, x.authority,
       x.base, x.reinforcement, x.decay,
       round((CASE WHEN x.exempt IS NOT NULL THEN greatest(x.raw, x.floor) ELSE x.raw END)::numeric, 9)::float8 AS salience,
       x.exempt IS NULL AND round(x.raw::numeric, 9) < x.floor AS attenuated,
       x.pinned, x.exempt, x.floor, x.half_life_days,
       x.surfaced, x.helpful, x.unhelpful, x.wrong, x.outdated, x.invalidated, x.repeated,
       x.last_use_at, x.last_use_seq, x.last_use_signal, x.redundant_of
FROM (
  SELECT mi.space_id, mi.item_id, mi.kind, mi.seq, mi.event_type, mi.occurred_at,
         coalesce(f.authority, 'log') AS authority,
         zaxy_salience_base(coalesce(f.authority, 'log')) AS base,
         coalesce(sa.reinforcement, 1) AS reinforcement,
         zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, now(),
                             coalesce(sp.half_life_days, 30)) AS decay,
         zaxy_salience_base(coalesce(f.authority, 'log')) * coalesce(sa.reinforcement, 1)
           * zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, now(),
                                 coalesce(sp.half_life_days, 30)) AS raw,
         coalesce(sa.pinned, false) AS pinned,
         CASE WHEN coalesce(sa.pinned, false) THEN 'pinned' WHEN f.authority = 'asserted' THEN 'asserted' END AS exempt,
         coalesce(sp.floor, 0.1) AS floor, coalesce(sp.half_life_days, 30) AS half_life_days,
         coalesce(sa.surfaced, 0) AS surfaced, coalesce(sa.helpful, 0) AS helpful,
         coalesce(sa.unhelpful, 0) AS unhelpful, coalesce(sa.wrong, 0) AS wrong,
         coalesce(sa.outdated, 0) AS outdated, coalesce(sa.invalidated, 0) AS invalidated,
         coalesce(sa.repeated, 0) AS repeated,
         coalesce(sa.last_use_at, mi.occurred_at) AS last_use_at, sa.last_use_seq, sa.last_use_signal,
         mi.redundant_of
  FROM memory_items mi
  LEFT JOIN facts f ON mi.kind = 'fact' AND f.space_id = mi.space_id AND f.fact_id = substr(mi.item_id, 6)
  LEFT JOIN salience sa ON sa.space_id = mi.space_id AND sa.item_id = mi.item_id
  LEFT JOIN salience_spaces sp ON sp.space_id = mi.space_id
) x;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys, gate_spaces TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.salience TO zaxy_analyst;
  END IF;
END $$;
