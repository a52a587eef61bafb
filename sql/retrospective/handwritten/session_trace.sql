-- The newest $4 events of session $2 of space $1 before seq $3 (the outcome), oldest first,
-- leaving out the retrospective pass's own events (actor $5). session_id <> '' lets the partial
-- index events_session serve it.
SELECT t.seq, t.type, t.actor, t.content, t.data
FROM (
  SELECT e.seq, e.type, e.actor, e.content, e.data::text AS data
  FROM events e
  WHERE e.space_id = $1 AND e.session_id = $2 AND e.session_id <> '' AND e.seq < $3 AND e.actor <> $5
  ORDER BY e.seq DESC
  LIMIT $4
) t
ORDER BY t.seq
