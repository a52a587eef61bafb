-- name: LaneVerbatim :many
-- Verbatim lane: the log itself past the projection watermark (the newest events, not yet
-- projected), so an event acknowledged a moment ago is already findable. Bookkeeping events
-- and proposals (review material, never memory items once projected) are skipped. The caller ranks them by word overlap. @floor, when set, is the watermark to read
-- past instead of the current one: the keyword lane's, read before its own query, so that an
-- event projected between the two lanes' snapshots is still in one of them.
SELECT e.seq, e.type, e.session_id, e.content, e.data::text AS data
FROM events e
WHERE e.space_id = @space_id
  AND e.seq > coalesce(sqlc.narg(floor)::bigint, (SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = @space_id), 0)
  AND e.occurred_at <= @as_of
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%' AND e.type NOT LIKE 'proposal.%'
ORDER BY e.seq DESC
LIMIT @max_rows;
