-- Every event of a space up to its chain head ($2) in seq order, with data and cues as the
-- exact text that was hashed (eventloom.Row).
SELECT seq, type, session_id, actor, occurred_at, recorded_at, content,
       data::text AS data, cues::text AS cues, prev_hash, hash,
       hash_version, salt, body_digest, coalesce(erased_by_seq, 0) AS erased_by_seq
FROM events
WHERE space_id = $1 AND seq <= $2
ORDER BY seq
