-- The sessions with outcome.recorded events that are projected (at or below their space's
-- projection watermark) and not judged (no retrospective_judged row), each with its first such
-- outcome, oldest first, at most $1: what the sweep enqueues retrospective_credit jobs for. Reads
-- the partial index of outcome events (migration 000029).
SELECT e.space_id, e.data ->> 'session_id' AS session_id, min(e.seq) AS first_seq
FROM events e
JOIN projection_watermarks w ON w.space_id = e.space_id AND e.seq <= w.projected_seq
WHERE e.type = 'outcome.recorded' AND coalesce(e.data ->> 'session_id', '') <> ''
  AND NOT EXISTS (SELECT FROM retrospective_judged j WHERE j.space_id = e.space_id AND j.outcome_seq = e.seq)
GROUP BY e.space_id, e.data ->> 'session_id'
ORDER BY min(e.seq), e.space_id
LIMIT $1
