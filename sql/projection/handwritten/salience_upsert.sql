-- Recomputes the salience rows of the items a batch reinforced ($2) from their whole ledger,
-- after reinforcements_insert in the same transaction: counts per signal, the last use (the
-- latest recall, helpful feedback, pin or repetition by occurred_at, then seq; a plain surfacing is what
-- ranking itself chose, so it never refreshes recency, or ranking would feed on itself), whether the latest pin
-- or unpin pinned it, and the reinforcement multiplier (zaxy_salience_reinforcement, with the
-- repetitions the encoding gate recorded). Being a
-- function of the ledger alone, it gives a rebuild the same rows.
INSERT INTO salience AS s (space_id, item_id, surfaced, helpful, unhelpful, wrong, outdated, invalidated, pinned,
                           repeated, last_use_at, last_use_seq, last_use_signal, reinforcement)
SELECT a.space_id, a.item_id, a.surfaced, a.helpful, a.unhelpful, a.wrong, a.outdated, a.invalidated, a.pinned,
       a.repeated, (a.uses[1]).occurred_at, (a.uses[1]).seq, (a.uses[1]).signal,
       zaxy_salience_reinforcement(a.surfaced, a.helpful, a.unhelpful, a.wrong, a.outdated, a.invalidated, a.repeated)
FROM (
  SELECT r.space_id, r.item_id,
         (count(*) FILTER (WHERE r.signal = 'surfaced'))::int AS surfaced,
         (count(*) FILTER (WHERE r.signal = 'helpful'))::int AS helpful,
         (count(*) FILTER (WHERE r.signal = 'unhelpful'))::int AS unhelpful,
         (count(*) FILTER (WHERE r.signal = 'wrong'))::int AS wrong,
         (count(*) FILTER (WHERE r.signal = 'outdated'))::int AS outdated,
         (count(*) FILTER (WHERE r.signal = 'invalidated'))::int AS invalidated,
         (count(*) FILTER (WHERE r.signal = 'repeated'))::int AS repeated,
         coalesce((array_agg(r.signal = 'pinned' ORDER BY r.seq DESC)
                   FILTER (WHERE r.signal IN ('pinned', 'unpinned')))[1], false) AS pinned,
         array_agg(r ORDER BY r.occurred_at DESC, r.seq DESC)
           FILTER (WHERE r.signal IN ('recalled', 'helpful', 'pinned', 'repeated')) AS uses
  FROM reinforcements r
  WHERE r.space_id = $1 AND r.item_id = ANY ($2::text[])
  GROUP BY r.space_id, r.item_id
) a
ORDER BY a.item_id
ON CONFLICT (space_id, item_id) DO UPDATE SET
  surfaced = excluded.surfaced, helpful = excluded.helpful, unhelpful = excluded.unhelpful, wrong = excluded.wrong,
  outdated = excluded.outdated, invalidated = excluded.invalidated, pinned = excluded.pinned, repeated = excluded.repeated,
  last_use_at = excluded.last_use_at, last_use_seq = excluded.last_use_seq, last_use_signal = excluded.last_use_signal,
  reinforcement = excluded.reinforcement
