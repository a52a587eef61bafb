-- name: GateKeysInsert :exec
-- Adds a batch's ranked event items to the encoding gate's keys: one gate_keys row per (key,
-- item seq). The two arrays are the columns of the pairs, of one length, so the batch is one
-- statement.
WITH u AS (
  SELECT unnest(@keys::int[]) AS key, unnest(@seqs::bigint[]) AS seq
)
INSERT INTO gate_keys (space_key, key, seq)
SELECT (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text), u.key, u.seq
FROM u
ORDER BY u.key, u.seq
ON CONFLICT (space_key, key, seq) DO NOTHING;
