-- name: Stalings :many
-- The events in (@after_seq, @upto_seq] that make an earlier event unusable as a source: a
-- memory.invalidated (the invalidations projection, or a fact it closed by id), an erasure,
-- a stated fact, preference or decision superseded, a fact retracted. One row per (staling event, target), in seq order.
SELECT s.seq, e.occurred_at, s.target_seq, s.reason::text AS reason
FROM (
  SELECT i.seq, i.target_seq, 'invalidated' AS reason
  FROM invalidations i WHERE i.space_id = @space_id AND i.seq > @after_seq AND i.seq <= @upto_seq
  UNION
  SELECT f.closed_seq, f.recorded_seq,
         CASE WHEN f.status = 'superseded' THEN 'superseded' ELSE 'invalidated' END
  FROM facts f
  JOIN events r ON r.space_id = @space_id AND r.seq = f.recorded_seq
  WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.status IN ('superseded', 'retracted', 'invalidated')
    AND f.closed_seq > @after_seq AND f.closed_seq <= @upto_seq AND f.recorded_seq < f.closed_seq
    -- Superseding a statement (a fact, preference or decision) makes it no longer hold; a
    -- state a record implies (a tool's last outcome, a task's status, a fact extracted from a
    -- message) moving on leaves the record true.
    AND (f.status <> 'superseded' OR r.type IN ('fact.asserted', 'preference.stated', 'decision.recorded'))
  UNION
  -- Through the partial index of erasures (events_erasures, migration 000042).
  SELECT x.seq, (x.data->>'seq')::bigint, 'erased'
  FROM events x
  WHERE x.space_id = @space_id AND x.type = 'erasure.recorded' AND x.seq > @after_seq AND x.seq <= @upto_seq
) s
JOIN events e ON e.space_id = @space_id AND e.seq = s.seq
-- Only a target some producer can cite matters: a session's event (episodes) or a tool call,
-- preference, decision or outcome (the space-wide producers). The others would only split the
-- build.
JOIN events t ON t.space_id = @space_id AND t.seq = s.target_seq
WHERE t.session_id <> '' OR t.type IN ('tool_call.completed', 'preference.stated', 'decision.recorded', 'outcome.recorded')
ORDER BY s.seq, s.target_seq, s.reason;
