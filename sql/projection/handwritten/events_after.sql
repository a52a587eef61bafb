-- The next events of a space to project, in seq order after the watermark.
SELECT space_id, seq, type, session_id, actor, occurred_at, recorded_at, content,
       data::text AS data, cues::text AS cues, prev_hash, hash, coalesce(erased_by_seq, 0) AS erased_by_seq
FROM events
WHERE space_id = $1 AND seq > $2
ORDER BY seq
LIMIT $3
