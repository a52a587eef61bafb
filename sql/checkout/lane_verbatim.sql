-- Verbatim lane: the log itself past the projection watermark (the newest events, not yet
-- projected), so an event acknowledged a moment ago is already findable. Bookkeeping events
-- are skipped. The caller ranks them by word overlap.
SELECT e.seq, e.type, e.session_id, e.content, e.data::text
FROM events e
WHERE e.space_id = $1
  AND e.seq > coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = $1), 0)
  AND e.occurred_at <= $2
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%'
ORDER BY e.seq DESC
LIMIT $3
