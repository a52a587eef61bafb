-- name: SalienceUpsert :exec
-- Appends a batch's reinforcements to the ledger (the four arrays, of one length, are the
-- rows' columns: one row per (item, reinforcing event, signal); an event naming an item twice
-- adds one row) and folds the rows it added into the salience rows of the items they touch, in one statement: counts per signal added, the last
-- use (the latest recall, helpful feedback, pin or repetition by occurred_at, then seq, then
-- signal; a plain surfacing is what ranking itself chose, so it never refreshes recency, or
-- ranking would feed on itself) kept or replaced, whether the latest pin or unpin pinned it, and
-- the reinforcement multiplier (zaxy_salience_reinforcement, with the repetitions the encoding
-- gate recorded) recomputed from the new counts.
--
-- Folding instead of recounting the item's whole ledger keeps a batch's cost to its own rows:
-- an item a long session surfaces at every checkout had a ledger of thousands of rows, recounted
-- each time (77 ms per batch at 4,000). It gives the rows a recount would, because the projector
-- adds a space's reinforcements in seq order (each batch's seqs follow every earlier one's), so
-- the batch's latest pin or unpin is the item's latest; and because rows already in the ledger
-- (ON CONFLICT DO NOTHING) are not folded twice. A rebuild replays the same batches.
WITH added AS (
  INSERT INTO reinforcements (space_id, item_id, seq, signal, occurred_at)
  SELECT @space_id::text, u.item_id, u.seq, u.signal, u.occurred_at
  FROM (SELECT unnest(@item_ids::text[]) AS item_id, unnest(@seqs::bigint[]) AS seq, unnest(@signals::text[]) AS signal,
               unnest(@occurred_ats::timestamptz[]) AS occurred_at) u
  ORDER BY u.item_id, u.seq, u.signal
  ON CONFLICT (space_id, item_id, seq, signal) DO NOTHING
  RETURNING item_id, seq, signal, occurred_at
), batch AS (
  SELECT r.item_id,
         (count(*) FILTER (WHERE r.signal = 'surfaced'))::int AS surfaced,
         (count(*) FILTER (WHERE r.signal = 'helpful'))::int AS helpful,
         (count(*) FILTER (WHERE r.signal = 'unhelpful'))::int AS unhelpful,
         (count(*) FILTER (WHERE r.signal = 'wrong'))::int AS wrong,
         (count(*) FILTER (WHERE r.signal = 'outdated'))::int AS outdated,
         (count(*) FILTER (WHERE r.signal = 'invalidated'))::int AS invalidated,
         (count(*) FILTER (WHERE r.signal = 'repeated'))::int AS repeated,
         (array_agg(r.signal = 'pinned' ORDER BY r.seq DESC) FILTER (WHERE r.signal IN ('pinned', 'unpinned')))[1] AS pinned
  FROM added r
  GROUP BY r.item_id
), merged AS (
  SELECT b.item_id, u.occurred_at AS used_at, u.seq AS used_seq, u.signal AS used_signal,
         coalesce(o.surfaced, 0) + b.surfaced AS surfaced, coalesce(o.helpful, 0) + b.helpful AS helpful,
         coalesce(o.unhelpful, 0) + b.unhelpful AS unhelpful, coalesce(o.wrong, 0) + b.wrong AS wrong,
         coalesce(o.outdated, 0) + b.outdated AS outdated, coalesce(o.invalidated, 0) + b.invalidated AS invalidated,
         coalesce(o.repeated, 0) + b.repeated AS repeated,
         coalesce(b.pinned, o.pinned, false) AS pinned,
         -- The batch's use replaces the kept one when it is later by (occurred_at, seq, signal).
         u.occurred_at IS NOT NULL AND (o.last_use_at IS NULL
           OR (u.occurred_at, u.seq, u.signal) > (o.last_use_at, o.last_use_seq, o.last_use_signal)) AS newer,
         o.last_use_at, o.last_use_seq, o.last_use_signal
  FROM batch b
  LEFT JOIN salience o ON o.space_id = @space_id::text AND o.item_id = b.item_id
  -- The batch's latest use of the item.
  LEFT JOIN LATERAL (
    SELECT a.occurred_at, a.seq, a.signal FROM added a
    WHERE a.item_id = b.item_id AND a.signal IN ('recalled', 'helpful', 'pinned', 'repeated')
    ORDER BY a.occurred_at DESC, a.seq DESC, a.signal DESC LIMIT 1
  ) u ON true
)
INSERT INTO salience AS s (space_id, item_id, surfaced, helpful, unhelpful, wrong, outdated, invalidated, pinned,
                           repeated, last_use_at, last_use_seq, last_use_signal, reinforcement)
SELECT @space_id::text, m.item_id, m.surfaced, m.helpful, m.unhelpful, m.wrong, m.outdated, m.invalidated, m.pinned, m.repeated,
       CASE WHEN m.newer THEN m.used_at ELSE m.last_use_at END,
       CASE WHEN m.newer THEN m.used_seq ELSE m.last_use_seq END,
       CASE WHEN m.newer THEN m.used_signal ELSE m.last_use_signal END,
       zaxy_salience_reinforcement(m.surfaced, m.helpful, m.unhelpful, m.wrong, m.outdated, m.invalidated, m.repeated)
FROM merged m
ORDER BY m.item_id
ON CONFLICT (space_id, item_id) DO UPDATE SET
  surfaced = excluded.surfaced, helpful = excluded.helpful, unhelpful = excluded.unhelpful, wrong = excluded.wrong,
  outdated = excluded.outdated, invalidated = excluded.invalidated, pinned = excluded.pinned, repeated = excluded.repeated,
  last_use_at = excluded.last_use_at, last_use_seq = excluded.last_use_seq, last_use_signal = excluded.last_use_signal,
  reinforcement = excluded.reinforcement;
