-- name: LaneRemedy :many
-- The remedy lane: for each given event that is a failed tool call of a session (in the given
-- order), the session's next events that had occurred by @as_of, at most @follow of them: the
-- caller keeps those up to the retry (the same tool's next call with the same arguments).
-- @seqs best first. Walked through the partial index of the sessions' memory events (migration
-- 000027; the redundant conditions on session_id and type are its predicate, written out so the
-- planner uses it), as the reply lane walks it.
SELECT e.seq AS failure_seq, coalesce(e.data->>'tool', '')::text AS failure_tool,
       coalesce(e.data->>'arguments', '')::text AS failure_arguments, n.seq, n.type, n.tool, n.arguments
FROM unnest(@seqs::bigint[]) WITH ORDINALITY AS k(seq, ord)
JOIN events e ON e.space_id = @space_id AND e.seq = k.seq AND e.type = 'tool_call.completed'
  AND e.session_id <> '' AND e.data->>'outcome' = 'failure'
CROSS JOIN LATERAL (
  SELECT x.seq, x.type, coalesce(x.data->>'tool', '')::text AS tool, coalesce(x.data->>'arguments', '')::text AS arguments
  FROM events x
  WHERE x.space_id = @space_id AND x.session_id = e.session_id AND x.session_id <> '' AND x.seq > e.seq
    AND x.type NOT LIKE 'checkout.%' AND x.type NOT LIKE 'zaxy.%'
    AND x.type IN ('message', 'tool_call.completed', 'decision.recorded')
    AND x.occurred_at <= @as_of
  ORDER BY x.seq LIMIT @follow::int
) n
ORDER BY k.ord, n.seq;
