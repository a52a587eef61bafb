-- Verbatim lane: the log itself past the projection watermark (the newest events, not yet
-- projected), so an event acknowledged a moment ago is already findable. Bookkeeping events
-- are skipped. The caller ranks them by word overlap. $4, when set, is the watermark to read
-- past instead of the current one: the keyword lane's, read before its own query, so that an
-- event projected between the two lanes' snapshots is still in one of them.
SELECT e.seq, e.type, e.session_id, e.content, e.data::text
FROM events e
WHERE e.space_id = $1
  AND e.seq > coalesce($4::bigint, (SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = $1), 0)
  AND e.occurred_at <= $2
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%'
ORDER BY e.seq DESC
LIMIT $3
