-- The last $3 events of a session ($2), oldest first, bookkeeping skipped: read through the
-- partial index of the sessions' memory events (migration 000027; the conditions on session_id
-- and type are its predicate), so a long session's checkout records are never walked.
SELECT seq, type, session_id, actor, occurred_at, content, data::text AS data, hash
FROM (
  SELECT seq, type, session_id, actor, occurred_at, content, data, hash
  FROM events
  WHERE space_id = $1 AND session_id = $2 AND session_id <> '' AND type NOT LIKE 'checkout.%' AND type NOT LIKE 'zaxy.%'
  ORDER BY seq DESC
  LIMIT $3
) t
ORDER BY seq
