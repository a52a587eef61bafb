-- name: LaneReply :many
-- The reply lane: for each given message (in the given order) that asks something, or each one
-- with @statements, the next message of its session that had occurred by @as_of, and whether
-- the given one asks something. @seqs best first. The
-- next message is found through the partial index of the sessions' memory events (migration
-- 000027; the redundant conditions on session_id and type are its predicate, written out so the
-- planner uses it): the checkout.surfaced records a long session collects are never walked.
SELECT n.seq, n.role, n.speaker, (e.content ~ '\?\s*$')::bool AS asks
FROM unnest(@seqs::bigint[]) WITH ORDINALITY AS k(seq, ord)
JOIN events e ON e.space_id = @space_id AND e.seq = k.seq AND e.type = 'message' AND e.session_id <> ''
  AND (@statements::boolean OR e.content ~ '\?\s*$')
CROSS JOIN LATERAL (
  SELECT x.seq, coalesce(x.data->>'role', '')::text AS role, coalesce(nullif(x.data->>'name', ''), x.actor, '') AS speaker
  FROM events x
  WHERE x.space_id = @space_id AND x.session_id = e.session_id AND x.session_id <> '' AND x.seq > e.seq
    AND x.type = 'message' AND x.type NOT LIKE 'checkout.%' AND x.type NOT LIKE 'zaxy.%'
    AND x.occurred_at <= @as_of
  ORDER BY x.seq LIMIT 1
) n
ORDER BY k.ord;
