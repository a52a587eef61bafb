-- For each entity id in $2, the newest $3 events of space $1 that mention it, as event lines
-- with the number of such events (total), grouped by entity. The mentions in an erased event
-- whose purge is pending (zaxy_erased_pending, migration 000054) are left out, and so is an
-- invalidation by one (its reason).
SELECT t.id AS grp, m.total, e.seq, e.hash, e.type, e.session_id, e.actor, e.occurred_at, left(e.content, 2000) AS content,
       e.data::text AS data, inv.seq AS inv_seq, inv.hash AS inv_hash, inv.reason AS inv_reason,
       coalesce(fs.statuses, '{}') AS statuses
FROM unnest($2::text[]) AS t (id)
CROSS JOIN LATERAL (
  SELECT d.seq, count(*) OVER () AS total
  FROM (SELECT DISTINCT x.seq FROM mentions x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = $1) AND x.entity_id = t.id AND x.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])) d
  ORDER BY d.seq DESC
  LIMIT $3
) m
JOIN events e ON e.space_id = $1 AND e.seq = m.seq
LEFT JOIN LATERAL (
  SELECT i.seq, i.hash, i.reason FROM invalidations i
  WHERE i.space_id = e.space_id AND i.target_seq = e.seq AND i.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  ORDER BY i.seq LIMIT 1
) inv ON true
LEFT JOIN LATERAL (
  SELECT array_agg(DISTINCT f.status ORDER BY f.status) AS statuses FROM facts f
  WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.recorded_seq = e.seq AND f.status <> 'current'
) fs ON true
ORDER BY t.id, e.seq DESC
