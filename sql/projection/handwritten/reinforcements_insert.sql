-- Appends a batch's reinforcements to the ledger: one row per (item, reinforcing event,
-- signal); an event naming an item twice adds one row. Arrays, so the batch is one statement.
INSERT INTO reinforcements (space_id, item_id, seq, signal, occurred_at)
SELECT $1, u.item_id, u.seq, u.signal, u.occurred_at
FROM unnest($2::text[], $3::bigint[], $4::text[], $5::timestamptz[]) AS u (item_id, seq, signal, occurred_at)
ORDER BY u.item_id, u.seq, u.signal
ON CONFLICT (space_id, item_id, seq, signal) DO NOTHING
