-- The sessions of the outcome.recorded events in seqs ($2, $3] of space $1, each with its first
-- outcome seq there: what a projection batch asks the retrospective_credit job to judge.
SELECT e.data ->> 'session_id' AS session_id, min(e.seq) AS first_seq
FROM events e
WHERE e.space_id = $1 AND e.seq > $2 AND e.seq <= $3 AND e.type = 'outcome.recorded'
  AND coalesce(e.data ->> 'session_id', '') <> ''
GROUP BY 1
ORDER BY 1
