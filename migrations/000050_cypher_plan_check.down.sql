-- Back to 000013's runner: no plan check, no lock timeout.
CREATE OR REPLACE FUNCTION zaxy_cypher_sandbox(g text) RETURNS boolean
LANGUAGE plpgsql SET search_path = public, ag_catalog, pg_temp AS $fn$
DECLARE
  r text := 'zaxy_cy_' || substr(g, 4);
BEGIN
  IF g !~ '^zs_[0-9a-f]{24}$' THEN
    RAISE EXCEPTION 'not a zaxy graph name: %', g USING ERRCODE = '22023';
  END IF;
  -- Held to the end of the transaction: a catalog row updated by a transaction that has not
  -- committed yet cannot be updated again (key 0 of the AGE lock class; graphs lock by space).
  PERFORM pg_advisory_xact_lock(1517840764, 0);
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
    BEGIN
      EXECUTE format('CREATE ROLE %I NOLOGIN NOINHERIT', r);
    EXCEPTION
      WHEN insufficient_privilege THEN
        RAISE NOTICE 'cannot create the Cypher sandbox role % (no CREATEROLE); Cypher on graph % stays off, see docs/operations.md', r, g;
        RETURN false;
      WHEN duplicate_object OR unique_violation THEN
        NULL; -- created at the same moment by another database of this cluster
    END;
  END IF;
  IF NOT has_schema_privilege(r, 'ag_catalog', 'USAGE') THEN
    EXECUTE format('GRANT USAGE ON SCHEMA ag_catalog TO %I', r);
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', g, r);
  EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', g, r);
  -- The runner: one cypher() call on this graph. Each value's text is capped (SQLSTATE ZX021
  -- over max_value_bytes) and it stops after max_rows + 1 rows or once the rows' bytes pass
  -- max_bytes, so neither Postgres' result store nor the service holds more than that.
  EXECUTE format($def$
    CREATE OR REPLACE FUNCTION zaxy_cypher.%1$I(q text, ncols integer, max_rows integer,
                                                max_value_bytes integer, max_bytes bigint)
    RETURNS SETOF text[]
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, ag_catalog, pg_temp AS $body$
    DECLARE
      row_vals text[];
      cols text;
      vals text;
      n integer := 0;
      total bigint := 0;
      v text;
    BEGIN
      IF ncols IS NULL OR ncols < 1 OR ncols > 32 THEN
        RAISE EXCEPTION 'ncols must be between 1 and 32' USING ERRCODE = '22023';
      END IF;
      -- cypher() takes only a dollar-quoted constant; a $ could close it, so none may appear.
      IF strpos(q, '$') > 0 THEN
        RAISE EXCEPTION 'the query must not contain $' USING ERRCODE = '22023';
      END IF;
      SELECT string_agg(format('c%%s ag_catalog.agtype', k), ', ' ORDER BY k),
             string_agg(format('ag_catalog.agtype_out(c%%s)::text', k), ', ' ORDER BY k)
        INTO cols, vals FROM generate_series(1, ncols) k;
      FOR row_vals IN EXECUTE format($s$SELECT ARRAY[%%s] FROM ag_catalog.cypher(%2$L, $zq$%%s$zq$) AS (%%s) LIMIT %%s$s$,
                                     vals, q, cols, max_rows + 1) LOOP
        FOREACH v IN ARRAY row_vals LOOP
          IF octet_length(v) > max_value_bytes THEN
            RAISE EXCEPTION 'a value of %% bytes is over the limit of %% bytes', octet_length(v), max_value_bytes
              USING ERRCODE = 'ZX021';
          END IF;
          total := total + coalesce(octet_length(v), 4);
        END LOOP;
        RETURN NEXT row_vals;
        n := n + 1;
        EXIT WHEN n > max_rows OR total > max_bytes;
      END LOOP;
    END $body$
  $def$, g, g);
  BEGIN
    EXECUTE format('ALTER FUNCTION zaxy_cypher.%I(text, integer, integer, integer, bigint) OWNER TO %I', g, r);
  EXCEPTION WHEN insufficient_privilege THEN
    EXECUTE format('DROP FUNCTION zaxy_cypher.%I(text, integer, integer, integer, bigint)', g);
    RAISE NOTICE 'cannot give the Cypher runner of graph % to its sandbox role % (needs superuser); Cypher on it stays off, see docs/operations.md', g, r;
    RETURN false;
  END;
  EXECUTE format('REVOKE ALL ON FUNCTION zaxy_cypher.%I(text, integer, integer, integer, bigint) FROM PUBLIC', g);
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    EXECUTE format('GRANT EXECUTE ON FUNCTION zaxy_cypher.%I(text, integer, integer, integer, bigint) TO zaxy_app', g);
  END IF;
  RETURN true;
END $fn$;
REVOKE EXECUTE ON FUNCTION zaxy_cypher_sandbox(text) FROM PUBLIC;

DO $$
DECLARE
  g text;
BEGIN
  IF EXISTS (SELECT FROM pg_extension WHERE extname = 'age') THEN
    FOR g IN SELECT graph_name FROM age_graphs ORDER BY graph_name LOOP
      PERFORM zaxy_cypher_sandbox(g);
    END LOOP;
  END IF;
END $$;
