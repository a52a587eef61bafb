-- The reply lane: for each given message (in the given order), the next message of its session.
-- $1 space, $2 seqs (best first).
SELECT n.seq, n.role, n.speaker
FROM unnest($2::bigint[]) WITH ORDINALITY AS k(seq, ord)
JOIN events e ON e.space_id = $1 AND e.seq = k.seq AND e.type = 'message' AND e.session_id <> ''
  AND e.content ~ '\?\s*$'
CROSS JOIN LATERAL (
  SELECT x.seq, coalesce(x.data->>'role', '') AS role, coalesce(nullif(x.data->>'name', ''), x.actor, '') AS speaker
  FROM events x
  WHERE x.space_id = $1 AND x.session_id = e.session_id AND x.seq > e.seq AND x.type = 'message'
  ORDER BY x.seq LIMIT 1
) n
ORDER BY k.ord
