-- The events of space $1 outside session $4 and before seq $3 (the outcome) that invalidated
-- one of the items $2, or judged it outdated or wrong: read through the reinforcement ledger
-- (projected up to the outcome when the job runs, since the job follows the outcome's
-- projection).
SELECT e.seq, e.type, e.actor, e.content, e.data::text AS data
FROM events e
WHERE e.space_id = $1 AND e.session_id <> $4 AND e.seq IN (
  SELECT r.seq FROM reinforcements r
  WHERE r.space_id = $1 AND r.item_id = ANY ($2::text[]) AND r.signal IN ('invalidated', 'outdated', 'wrong') AND r.seq < $3
)
ORDER BY e.seq
