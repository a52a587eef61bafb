-- One page of a space's events in seq order, after a cursor, optionally bounded by seq,
-- session and recorded_at. The body digest is read only for erased events (docs/eventloom.md).
SELECT space_id, seq, type, session_id, actor, occurred_at, recorded_at, content,
       data::text AS data, cues::text AS cues, prev_hash, hash,
       hash_version, salt, CASE WHEN erased_by_seq IS NOT NULL THEN body_digest END AS body_digest,
       coalesce(erased_by_seq, 0) AS erased_by_seq
FROM events
WHERE space_id = $1
  AND seq > $2
  AND ($3::bigint IS NULL OR seq <= $3)
  AND ($4::text = '' OR session_id = $4)
  AND ($5::timestamptz IS NULL OR recorded_at <= $5)
ORDER BY seq
LIMIT $6
