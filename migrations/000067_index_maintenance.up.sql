-- Index maintenance (package maintenance, the reindex job): the application role may rebuild
-- the indexes of the projection tables with REINDEX INDEX CONCURRENTLY, which on PostgreSQL 17
-- needs the table's MAINTAIN privilege (or ownership), and may drop the invalid index a failed
-- concurrent rebuild leaves behind through zaxy_drop_failed_rebuild, since dropping an index
-- needs ownership.
--
-- MAINTAIN goes to every public table zaxy_app may already DELETE from (the projections; not
-- the log, the tokens or River's tables). It also allows VACUUM, ANALYZE, CLUSTER, REFRESH
-- MATERIALIZED VIEW and LOCK TABLE on those tables, whose rows the role may already delete.
DO $$
DECLARE
  t text;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    RETURN;
  END IF;
  FOR t IN
    SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
      AND c.relname NOT LIKE 'river\_%'
      AND has_table_privilege('zaxy_app', c.oid, 'DELETE')
    ORDER BY c.relname
  LOOP
    EXECUTE format('GRANT MAINTAIN ON public.%I TO zaxy_app', t);
  END LOOP;
END $$;

-- Drops p_index when it is what a failed REINDEX INDEX CONCURRENTLY leaves: an invalid index
-- of a public table the caller may MAINTAIN, named <index>_ccnew[N] or <index>_ccold[N], that
-- no other session holds a lock on (a rebuild still running holds one). Returns whether it
-- dropped it. DROP INDEX takes the table's ACCESS EXCLUSIVE lock for the moment the drop
-- takes; lock_timeout gives up after 2 s rather than queue writers behind it (SQLSTATE 55P03,
-- the next run tries again). SECURITY DEFINER: only the owner may drop an index.
CREATE FUNCTION zaxy_drop_failed_rebuild(p_index regclass) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public AS $$
DECLARE
  ok boolean;
BEGIN
  SELECT NOT x.indisvalid
     AND i.relnamespace = 'public'::regnamespace
     AND i.relname ~ '_cc(new|old)[0-9]*$'
     AND has_table_privilege(session_user, x.indrelid, 'MAINTAIN')
     AND NOT EXISTS (SELECT FROM pg_locks l WHERE l.relation = i.oid AND l.pid <> pg_backend_pid())
    INTO ok
  FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
  WHERE x.indexrelid = p_index;
  IF NOT coalesce(ok, false) THEN
    RETURN false;
  END IF;
  SET LOCAL lock_timeout = '2s';
  EXECUTE format('DROP INDEX %s', p_index);
  RETURN true;
END $$;
REVOKE EXECUTE ON FUNCTION zaxy_drop_failed_rebuild(regclass) FROM PUBLIC;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_drop_failed_rebuild(regclass) TO zaxy_app;
  END IF;
END $$;
