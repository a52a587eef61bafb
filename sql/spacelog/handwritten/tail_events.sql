-- The events of a space after seq $2 up to its chain head $3 in seq order, as export_events.sql
-- reads them (eventloom.Row).
SELECT seq, type, session_id, actor, occurred_at, recorded_at, content,
       data::text AS data, cues::text AS cues, prev_hash, hash,
       hash_version, salt, body_digest, coalesce(erased_by_seq, 0) AS erased_by_seq
FROM events
WHERE space_id = $1 AND seq > $2 AND seq <= $3
ORDER BY seq
