-- One event of space $1 by seq ($2), as recorded.
SELECT e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.recorded_at, e.content, e.data::text AS data,
       e.cues::text AS cues, e.prev_hash, e.hash
FROM events e
WHERE e.space_id = $1 AND e.seq = $2
