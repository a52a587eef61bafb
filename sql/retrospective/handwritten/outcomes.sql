-- The outcome.recorded events of space $1 about session $2 (data.session_id) from seq $3 on, in
-- seq order: a range scan of the space's log from $3 (the job's args carry the first outcome
-- seq that enqueued it, so a run reads only the tail).
SELECT e.seq, e.type, e.actor, e.content, e.data::text AS data
FROM events e
WHERE e.space_id = $1 AND e.seq >= $3 AND e.type = 'outcome.recorded' AND e.data ->> 'session_id' = $2
ORDER BY e.seq
