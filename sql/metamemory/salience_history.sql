-- name: SalienceHistory :many
-- One memory item's salience as it happened: each row of its reinforcement ledger (the
-- reinforcements projection: surfacings, recalls, feedback, invalidations, pins, unpins and the
-- encoding gate's repetitions), oldest first, with the item's reinforcement multiplier, pinned
-- state and last use after it (counted as the projector folds them into salience:
-- salience_upsert.sql), its decay and salience at that moment (zaxy_salience_decay,
-- zaxy_salience_base), and the ledger's total. The item's authority is that of its fact
-- version, else "log". Only the latest @max_rows rows are returned; the running counts cover
-- the whole ledger.
WITH item AS (
  SELECT mi.occurred_at, zaxy_salience_base(coalesce(f.authority, 'log')) AS base
  FROM memory_items mi
  LEFT JOIN facts f ON mi.kind = 'fact' AND f.space_key = mi.space_key AND f.fact_id = substr(mi.item_id, 6)
  WHERE mi.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND mi.item_id = @item_id
), ledger AS (
  SELECT r.seq, r.signal, r.occurred_at,
         count(*) OVER () AS total,
         row_number() OVER (ORDER BY r.seq DESC, r.signal DESC) AS from_end,
         (count(*) FILTER (WHERE r.signal = 'surfaced') OVER w)::int AS surfaced,
         (count(*) FILTER (WHERE r.signal = 'helpful') OVER w)::int AS helpful,
         (count(*) FILTER (WHERE r.signal = 'unhelpful') OVER w)::int AS unhelpful,
         (count(*) FILTER (WHERE r.signal = 'wrong') OVER w)::int AS wrong,
         (count(*) FILTER (WHERE r.signal = 'outdated') OVER w)::int AS outdated,
         (count(*) FILTER (WHERE r.signal = 'invalidated') OVER w)::int AS invalidated,
         (count(*) FILTER (WHERE r.signal = 'repeated') OVER w)::int AS repeated,
         (array_agg(r.signal = 'pinned') FILTER (WHERE r.signal IN ('pinned', 'unpinned')) OVER w) AS pins,
         max(r.occurred_at) FILTER (WHERE r.signal IN ('recalled', 'helpful', 'pinned', 'repeated')) OVER w AS last_use_at
  FROM reinforcements r
  WHERE r.space_id = @space_id AND r.item_id = @item_id
  WINDOW w AS (ORDER BY r.seq, r.signal ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
SELECT l.seq, l.signal, l.occurred_at, l.total::bigint AS total,
       zaxy_salience_reinforcement(l.surfaced, l.helpful, l.unhelpful, l.wrong, l.outdated, l.invalidated, l.repeated) AS reinforcement,
       coalesce(l.pins[array_length(l.pins, 1)], false)::boolean AS pinned,
       coalesce(l.last_use_at, i.occurred_at)::timestamptz AS last_use_at,
       zaxy_salience_decay(coalesce(l.last_use_at, i.occurred_at), sp.use_started_at, l.occurred_at,
                           coalesce(sp.half_life_days, 30)) AS decay,
       i.base::float8 AS base
FROM ledger l
CROSS JOIN item i
LEFT JOIN salience_spaces sp ON sp.space_id = @space_id
WHERE l.from_end <= @max_rows::bigint
ORDER BY l.seq, l.signal;

-- name: SalienceOfItem :one
-- One memory item's salience now, as checkout computes it at as_of now() (fetch_events.sql,
-- fetch_facts.sql): its base, reinforcement multiplier, pinned state, last use and decay, the
-- space's floor and half-life, and when the item occurred. No row when the item is not a
-- memory item of the space.
SELECT mi.occurred_at, now()::timestamptz AS now, zaxy_salience_base(coalesce(f.authority, 'log'))::float8 AS base,
       coalesce(f.authority, 'log')::text AS authority,
       coalesce(sa.reinforcement, 1)::float8 AS reinforcement, coalesce(sa.pinned, false)::boolean AS pinned,
       coalesce(sa.last_use_at, mi.occurred_at)::timestamptz AS last_use_at,
       zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, now(),
                           coalesce(sp.half_life_days, 30))::float8 AS decay,
       coalesce(sp.floor, 0.1)::float8 AS floor, coalesce(sp.half_life_days, 30)::float8 AS half_life_days
FROM memory_items mi
LEFT JOIN facts f ON mi.kind = 'fact' AND f.space_key = mi.space_key AND f.fact_id = substr(mi.item_id, 6)
LEFT JOIN salience sa ON sa.space_id = @space_id AND sa.item_id = mi.item_id
LEFT JOIN salience_spaces sp ON sp.space_id = @space_id
WHERE mi.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND mi.item_id = @item_id;
