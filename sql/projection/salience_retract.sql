-- name: SalienceRetract :exec
-- Takes invalidated feedback out of the reinforcement ledger: deletes the rows (the three
-- arrays, of one length, are their item, seq and signal) and recounts the salience row of each
-- item they touched from what is left of its ledger (counts per signal, the last use, pinned,
-- the multiplier: what SalienceUpsert's fold gives for the same rows), deleting the row of an
-- item with nothing left. The statement's snapshot still shows the deleted rows, so the recount
-- leaves them out by key.
WITH gone AS (
  DELETE FROM reinforcements r
  USING (SELECT unnest(@item_ids::text[]) AS item_id, unnest(@seqs::bigint[]) AS seq, unnest(@signals::text[]) AS signal) g
  WHERE r.space_id = @space_id::text AND r.item_id = g.item_id AND r.seq = g.seq AND r.signal = g.signal
  RETURNING r.item_id, r.seq, r.signal
), touched AS (
  SELECT DISTINCT item_id FROM gone
), kept AS (
  SELECT r.item_id, r.seq, r.signal, r.occurred_at
  FROM touched t
  JOIN reinforcements r ON r.space_id = @space_id::text AND r.item_id = t.item_id
  WHERE NOT EXISTS (SELECT FROM gone g WHERE g.item_id = r.item_id AND g.seq = r.seq AND g.signal = r.signal)
), counts AS (
  SELECT k.item_id,
         (count(*) FILTER (WHERE k.signal = 'surfaced'))::int AS surfaced,
         (count(*) FILTER (WHERE k.signal = 'helpful'))::int AS helpful,
         (count(*) FILTER (WHERE k.signal = 'unhelpful'))::int AS unhelpful,
         (count(*) FILTER (WHERE k.signal = 'wrong'))::int AS wrong,
         (count(*) FILTER (WHERE k.signal = 'outdated'))::int AS outdated,
         (count(*) FILTER (WHERE k.signal = 'invalidated'))::int AS invalidated,
         (count(*) FILTER (WHERE k.signal = 'repeated'))::int AS repeated,
         coalesce((array_agg(k.signal = 'pinned' ORDER BY k.seq DESC) FILTER (WHERE k.signal IN ('pinned', 'unpinned')))[1], false) AS pinned
  FROM kept k
  GROUP BY k.item_id
), emptied AS (
  DELETE FROM salience s
  USING touched t
  WHERE s.space_id = @space_id::text AND s.item_id = t.item_id
    AND NOT EXISTS (SELECT FROM counts c WHERE c.item_id = t.item_id)
)
UPDATE salience s SET
  surfaced = c.surfaced, helpful = c.helpful, unhelpful = c.unhelpful, wrong = c.wrong, outdated = c.outdated,
  invalidated = c.invalidated, repeated = c.repeated, pinned = c.pinned,
  last_use_at = u.occurred_at, last_use_seq = u.seq, last_use_signal = u.signal,
  reinforcement = zaxy_salience_reinforcement(c.surfaced, c.helpful, c.unhelpful, c.wrong, c.outdated, c.invalidated, c.repeated)
FROM counts c
LEFT JOIN LATERAL (
  SELECT k.occurred_at, k.seq, k.signal FROM kept k
  WHERE k.item_id = c.item_id AND k.signal IN ('recalled', 'helpful', 'pinned', 'repeated')
  ORDER BY k.occurred_at DESC, k.seq DESC, k.signal DESC LIMIT 1
) u ON true
WHERE s.space_id = @space_id::text AND s.item_id = c.item_id;
