-- Salience (docs/checkout.md, Salience; docs/projections.md): memory that learns from use and
-- forgets by attenuation, as projection policy over the unchanged log.
--
-- reinforcements, salience and salience_spaces are projections: written only by the projector,
-- which holds the space's watermark lock, in the transaction that applies the events;
-- discarded and replayed by a rebuild and covered by the projection checksum. Their values
-- depend only on the log (times are the reinforcing events' occurred_at), never on the clock.
-- salience_decayed is the one time-dependent table: the salience_decay job materialises the
-- decayed salience of every item as of its run; it is left out of the checksum.

-- The reinforcement ledger: one row per (item, reinforcing event, signal). surfaced comes from
-- checkout.surfaced (recalled when the checkout recalled the item from below the floor with
-- include_attenuated), helpful/unhelpful/wrong/outdated from feedback.recorded, invalidated from
-- memory.invalidated, pinned/unpinned from memory.pinned/memory.unpinned. A row targets exactly
-- the item the event names (never the events a named fact cites, never the whole space).
CREATE TABLE reinforcements (
  space_id    text NOT NULL,
  item_id     text NOT NULL,
  seq         bigint NOT NULL,
  signal      text NOT NULL CONSTRAINT reinforcements_signal CHECK (signal IN
              ('surfaced', 'recalled', 'helpful', 'unhelpful', 'wrong', 'outdated', 'invalidated', 'pinned', 'unpinned')),
  occurred_at timestamptz NOT NULL,
  PRIMARY KEY (space_id, item_id, seq, signal)
);

-- Per item, the ledger summed: counts per signal, the last use (the latest recall, helpful
-- feedback or pin, by occurred_at then seq; a plain surfacing never refreshes recency), whether the item is pinned (its latest pin or
-- unpin), and the reinforcement multiplier computed from the counts
-- (zaxy_salience_reinforcement). Items never reinforced have no row (multiplier 1, last use
-- their own occurred_at). Checkout reads it by primary key, joined into the item fetch.
CREATE TABLE salience (
  space_id        text NOT NULL,
  item_id         text NOT NULL,
  surfaced        integer NOT NULL DEFAULT 0,
  helpful         integer NOT NULL DEFAULT 0,
  unhelpful       integer NOT NULL DEFAULT 0,
  wrong           integer NOT NULL DEFAULT 0,
  outdated        integer NOT NULL DEFAULT 0,
  invalidated     integer NOT NULL DEFAULT 0,
  pinned          boolean NOT NULL DEFAULT false,
  last_use_at     timestamptz,
  last_use_seq    bigint,
  last_use_signal text,
  reinforcement   double precision NOT NULL,
  PRIMARY KEY (space_id, item_id)
);

-- The space's salience policy (salience.configured; defaults 30 days and 0.1) and when its
-- memory was first used (the earliest occurred_at of a surfacing, feedback or pin): disuse is
-- counted from then, so a space nobody consults (an import, a benchmark asked with no_record)
-- forgets nothing.
CREATE TABLE salience_spaces (
  space_id       text PRIMARY KEY,
  half_life_days double precision NOT NULL DEFAULT 30 CONSTRAINT salience_spaces_half_life CHECK (half_life_days > 0),
  floor          double precision NOT NULL DEFAULT 0.1 CONSTRAINT salience_spaces_floor CHECK (floor >= 0 AND floor < 1),
  configured_seq bigint,
  use_started_at timestamptz
);

-- What the salience_decay job materialised: each memory item's salience as of decayed_at, and
-- whether it was below the floor (and not exempt). Time-dependent, so not in the checksum;
-- checkout computes salience as of its own as_of and does not read it.
CREATE TABLE salience_decayed (
  space_id   text NOT NULL,
  item_id    text NOT NULL,
  salience   double precision NOT NULL,
  attenuated boolean NOT NULL,
  decayed_at timestamptz NOT NULL,
  PRIMARY KEY (space_id, item_id)
);

CREATE INDEX salience_decayed_attenuated ON salience_decayed (space_id) WHERE attenuated;

-- The salience_decay job's last run per space (the sweep enqueues a run when it is older than
-- an hour): when, how many items it materialised and how many were attenuated.
CREATE TABLE salience_decay_runs (
  space_id   text PRIMARY KEY,
  decayed_at timestamptz NOT NULL,
  items      bigint NOT NULL,
  attenuated bigint NOT NULL
);

-- The base multiplier of an item by what it is: events (authority log) 1.0; fact versions by
-- authority: asserted 1.0, extracted 0.9, inferred 0.7 (derived material weighs less).
CREATE FUNCTION zaxy_salience_base(authority text) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE authority WHEN 'extracted' THEN 0.9 WHEN 'inferred' THEN 0.7 ELSE 1.0 END;

-- The reinforcement multiplier of an item's history: (1 + 0.01 per surfacing, at most 10
-- counted) × (1 + 0.05 per helpful feedback, at most 5 counted) × 0.7^unhelpful × 0.4^wrong ×
-- 0.5^outdated × 0.5^invalidated, clamped to [0.05, 1.5]. The upside is small on purpose:
-- fusion's reciprocal ranks are close together (rank 1 and rank 10 of a lane differ by 15%),
-- so a larger boost would let what helped one question crowd out what answers the next;
-- the downside is what sinks misleading memory.
CREATE FUNCTION zaxy_salience_reinforcement(surfaced integer, helpful integer, unhelpful integer,
                                            wrong integer, outdated integer, invalidated integer)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN greatest(0.05, least(1.5,
  (1 + 0.01 * least(surfaced, 5)) * (1 + 0.05 * least(helpful, 5)) * power(0.7, unhelpful) * power(0.4, wrong)
  * power(0.5, outdated) * power(0.5, invalidated)));

-- The recency decay of an item last used at last_use, as of as_of: 0.5^(whole days of disuse /
-- half-life), disuse counted from the later of last_use and the space's first use; 1 when the
-- space's memory was never used, or as_of is not after it. Whole days keep a day's checkouts
-- ranking alike (prompt caches hit).
CREATE FUNCTION zaxy_salience_decay(last_use timestamptz, use_started timestamptz, as_of timestamptz,
                                    half_life_days double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN use_started IS NULL OR last_use IS NULL THEN 1.0
            ELSE power(0.5, greatest(0, floor(extract(epoch FROM as_of - greatest(last_use, use_started)) / 86400))
                            / half_life_days) END;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON reinforcements, salience, salience_spaces, salience_decayed,
                                           salience_decay_runs TO zaxy_app;
  END IF;
END $$;
