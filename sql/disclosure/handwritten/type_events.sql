-- The newest $4 events of each type in $2 (each no older than its seq in $3, a bound that
-- keeps rare types cheap) of space $1, as event lines, grouped by type.
-- An invalidation by an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is not shown (its reason is the erased text's).
SELECT t.name AS grp, e.seq, e.hash, e.type, e.session_id, e.actor, e.occurred_at, left(e.content, 2000) AS content,
       e.data::text AS data, inv.seq AS inv_seq, inv.hash AS inv_hash, inv.reason AS inv_reason,
       coalesce(fs.statuses, '{}') AS statuses
FROM unnest($2::text[], $3::bigint[]) AS t (name, first_seq)
CROSS JOIN LATERAL (
  SELECT * FROM events x
  WHERE x.space_id = $1 AND x.type = t.name AND x.seq >= t.first_seq
  ORDER BY x.seq DESC
  LIMIT $4
) e
LEFT JOIN LATERAL (
  SELECT i.seq, i.hash, i.reason FROM invalidations i
  WHERE i.space_id = e.space_id AND i.target_seq = e.seq AND i.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  ORDER BY i.seq LIMIT 1
) inv ON true
LEFT JOIN LATERAL (
  SELECT array_agg(DISTINCT f.status ORDER BY f.status) AS statuses FROM facts f
  WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.recorded_seq = e.seq AND f.status <> 'current'
) fs ON true
ORDER BY t.name, e.seq DESC
