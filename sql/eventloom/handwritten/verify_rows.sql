-- Every event of a space in seq order, with data and cues as the exact text that was hashed.
SELECT seq, type, session_id, actor, occurred_at, recorded_at, content,
       data::text AS data, cues::text AS cues, prev_hash, hash,
       hash_version, salt, body_digest, coalesce(erased_by_seq, 0) AS erased_by_seq
FROM events
WHERE space_id = $1
ORDER BY seq
