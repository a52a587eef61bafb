-- The invalid indexes a failed REINDEX INDEX CONCURRENTLY left on public tables the current
-- user may MAINTAIN: named <index>_ccnew[N] (the new copy, its build interrupted) or
-- <index>_ccold[N] (the old one, its drop interrupted). zaxy_drop_failed_rebuild drops each
-- unless a session still holds a lock on it.
SELECT i.oid::int8 AS oid, i.relname::text AS name, pg_relation_size(i.oid) AS bytes
FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_class c ON c.oid = x.indrelid
WHERE c.relnamespace = 'public'::regnamespace
  AND NOT x.indisvalid
  AND i.relname ~ '_cc(new|old)[0-9]*$'
  AND has_table_privilege(c.oid, 'MAINTAIN')
ORDER BY i.relname
