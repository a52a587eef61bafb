-- What a session needs after a context compaction, read from the log alone ($2 = session,
-- '' for the whole space): each task's latest update that is not done or cancelled, facts
-- asserted and never retracted or invalidated (accepted findings), the latest decisions,
-- and known unknowns (recorded memory.known_unknown events not invalidated, failed tool calls
-- not followed by a success of the same tool, and the latest user questions). One row per
-- item: kind, seq, hash, occurred_at, content, data.
WITH ev AS (
  SELECT * FROM events
  WHERE space_id = $1 AND ($2 = '' OR session_id = $2)
    AND type NOT LIKE 'checkout.%' AND type NOT LIKE 'zaxy.%'
), invalidated AS (
  SELECT (data->>'target_seq')::bigint AS seq FROM events
  WHERE space_id = $1 AND type = 'memory.invalidated' AND data ? 'target_seq'
), tasks AS (
  SELECT DISTINCT ON (data->>'task_id') 'open_task' AS kind, seq, hash, occurred_at, content, data
  FROM ev WHERE type = 'task.updated'
  ORDER BY data->>'task_id', seq DESC
), findings AS (
  SELECT 'finding' AS kind, a.seq, a.hash, a.occurred_at, a.content, a.data
  FROM ev a
  WHERE a.type = 'fact.asserted'
    AND a.seq NOT IN (SELECT seq FROM invalidated WHERE seq IS NOT NULL)
    AND NOT EXISTS (
      SELECT FROM events r
      WHERE r.space_id = $1 AND r.seq > a.seq AND r.type IN ('fact.retracted', 'fact.asserted')
        AND lower(r.data->>'subject') = lower(a.data->>'subject')
        AND lower(r.data->>'predicate') = lower(a.data->>'predicate'))
  ORDER BY a.seq DESC
  LIMIT $3
), decisions AS (
  SELECT 'decision' AS kind, seq, hash, occurred_at, content, data
  FROM ev WHERE type = 'decision.recorded' AND seq NOT IN (SELECT seq FROM invalidated WHERE seq IS NOT NULL)
  ORDER BY seq DESC
  LIMIT $3
), failures AS (
  SELECT 'unknown' AS kind, f.seq, f.hash, f.occurred_at, f.content, f.data
  FROM ev f
  WHERE f.type = 'tool_call.completed' AND f.data->>'outcome' = 'failure'
    AND NOT EXISTS (SELECT FROM ev s WHERE s.type = 'tool_call.completed' AND s.seq > f.seq
                    AND s.data->>'tool' = f.data->>'tool' AND s.data->>'outcome' = 'success')
  ORDER BY f.seq DESC
  LIMIT $3
), recorded_unknowns AS (
  SELECT 'known_unknown' AS kind, seq, hash, occurred_at, content, data
  FROM ev WHERE type = 'memory.known_unknown' AND seq NOT IN (SELECT seq FROM invalidated WHERE seq IS NOT NULL)
  ORDER BY seq DESC
  LIMIT $3
), questions AS (
  SELECT 'unknown' AS kind, seq, hash, occurred_at, content, data
  FROM ev WHERE type = 'message' AND data->>'role' = 'user' AND rtrim(content) LIKE '%?'
  ORDER BY seq DESC
  LIMIT 3
)
SELECT kind, seq, hash, occurred_at, content, data::text FROM tasks
WHERE data->>'status' NOT IN ('done', 'cancelled')
UNION ALL SELECT kind, seq, hash, occurred_at, content, data::text FROM findings
UNION ALL SELECT kind, seq, hash, occurred_at, content, data::text FROM decisions
UNION ALL SELECT kind, seq, hash, occurred_at, content, data::text FROM failures
UNION ALL SELECT kind, seq, hash, occurred_at, content, data::text FROM recorded_unknowns
UNION ALL SELECT kind, seq, hash, occurred_at, content, data::text FROM questions
ORDER BY kind, seq DESC
