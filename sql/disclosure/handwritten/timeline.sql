-- Timeline of space $1: events of the types $2 before seq $3, newest first, at most $4, as
-- event lines (an event summarized, with its first invalidation and the statuses of the facts
-- it recorded that are no longer current). Reads the log, so unprojected events are included.
-- An invalidation by an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is not shown (its reason is the erased text's).
SELECT e.seq, e.hash, e.type, e.session_id, e.actor, e.occurred_at, left(e.content, 2000) AS content,
       e.data::text AS data, inv.seq AS inv_seq, inv.hash AS inv_hash, inv.reason AS inv_reason,
       coalesce(fs.statuses, '{}') AS statuses
FROM events e
LEFT JOIN LATERAL (
  SELECT i.seq, i.hash, i.reason FROM invalidations i
  WHERE i.space_id = e.space_id AND i.target_seq = e.seq AND i.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  ORDER BY i.seq LIMIT 1
) inv ON true
LEFT JOIN LATERAL (
  SELECT array_agg(DISTINCT f.status ORDER BY f.status) AS statuses FROM facts f
  WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.recorded_seq = e.seq AND f.status <> 'current'
) fs ON true
WHERE e.space_id = $1 AND e.type = ANY($2::text[]) AND e.seq < $3
ORDER BY e.seq DESC
LIMIT $4
