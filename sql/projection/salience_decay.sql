-- name: SalienceDecay :one
-- Materialises the salience of every memory item of a space as of @as_of into salience_decayed
-- (base × reinforcement × decay, raised to the floor for pinned items and asserted facts, nine
-- decimals as checkout rounds it), drops the rows of items that are gone, records the run,
-- and counts the items, the attenuated ones, and those that crossed the floor since the last
-- run either way. Checkout computes the same values as of its own as_of and reads none of
-- this; the table is for operators and SQL (docs/operations.md).
WITH prev AS (
  SELECT d.item_id FROM salience_decayed d WHERE d.space_id = @space_id AND d.attenuated
), items AS (
  SELECT mi.item_id,
         zaxy_salience_base(CASE WHEN mi.kind = 'fact' THEN f.authority ELSE 'log' END) * coalesce(sa.reinforcement, 1)
           * zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, @as_of::timestamptz,
                                 coalesce(sp.half_life_days, 30)) AS raw,
         coalesce(sa.pinned, false) OR f.authority IS NOT DISTINCT FROM 'asserted' AS exempt,
         coalesce(sp.floor, 0.1) AS floor
  FROM memory_items mi
  LEFT JOIN facts f ON mi.kind = 'fact' AND f.space_key = mi.space_key AND f.fact_id = substr(mi.item_id, 6)
  LEFT JOIN salience sa ON sa.space_id = @space_id AND sa.item_id = mi.item_id
  LEFT JOIN salience_spaces sp ON sp.space_id = @space_id
  WHERE mi.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
), up AS (
  INSERT INTO salience_decayed AS d (space_id, item_id, salience, attenuated, decayed_at)
  SELECT @space_id, i.item_id, round((CASE WHEN i.exempt THEN greatest(i.raw, i.floor) ELSE i.raw END)::numeric, 9)::float8,
         NOT i.exempt AND round(i.raw::numeric, 9) < i.floor, @as_of::timestamptz
  FROM items i
  ORDER BY i.item_id
  ON CONFLICT (space_id, item_id) DO UPDATE
    SET salience = excluded.salience, attenuated = excluded.attenuated, decayed_at = excluded.decayed_at
  RETURNING d.item_id, d.attenuated
), gone AS (
  DELETE FROM salience_decayed d
  WHERE d.space_id = @space_id
    AND NOT EXISTS (SELECT FROM memory_items mi
                    WHERE mi.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND mi.item_id = d.item_id)
), counts AS (
  SELECT count(*) AS items,
         count(*) FILTER (WHERE up.attenuated) AS attenuated,
         count(*) FILTER (WHERE up.attenuated AND prev.item_id IS NULL) AS newly_attenuated,
         count(*) FILTER (WHERE NOT up.attenuated AND prev.item_id IS NOT NULL) AS restored
  FROM up LEFT JOIN prev ON prev.item_id = up.item_id
), run AS (
  INSERT INTO salience_decay_runs AS r (space_id, decayed_at, items, attenuated)
  SELECT @space_id, @as_of::timestamptz, c.items, c.attenuated FROM counts c
  ON CONFLICT (space_id) DO UPDATE SET decayed_at = excluded.decayed_at, items = excluded.items, attenuated = excluded.attenuated
)
SELECT c.items::bigint AS items, c.attenuated::bigint AS attenuated, c.newly_attenuated::bigint AS newly_attenuated,
       c.restored::bigint AS restored
FROM counts c;
