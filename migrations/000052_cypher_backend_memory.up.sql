-- zaxy_backend_memory(pid): the private memory (RssAnon, in bytes) of one of the calling login
-- role's own backends, read from /proc/<pid>/status. The Cypher watchdog polls it while a
-- query runs and ends the backend once it passes the cap: AGE's collect() and its agtype
-- comparisons (ORDER BY, DISTINCT inside an aggregate) allocate per row without any limit of
-- their own, and Postgres has no other way to read another backend's memory. NULL where it
-- cannot be read (not Linux, or the function's owner may not read server files: then it is
-- created all the same and Cypher's memory is bounded by its timeout only).
CREATE OR REPLACE FUNCTION zaxy_backend_memory(pid integer) RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_stat_activity a
                 WHERE a.pid = zaxy_backend_memory.pid AND a.usename = session_user) THEN
    RETURN NULL;
  END IF;
  -- The path is built from an integer only.
  RETURN substring(pg_read_file('/proc/' || pid::text || '/status', true) FROM 'RssAnon:\s+([0-9]+) kB')::bigint * 1024;
EXCEPTION
  WHEN insufficient_privilege OR undefined_file OR invalid_parameter_value OR io_error THEN
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION zaxy_backend_memory(integer) FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_backend_memory(integer) TO zaxy_app;
  END IF;
END $$;
