-- The Cypher sandbox and the AGE mirror digest.
--
-- AGE passes function names it does not know to Postgres and ignores READ ONLY for SET,
-- REMOVE and DETACH DELETE, so a Cypher query that slipped past the service's filter could
-- run SQL as the service. Each space's graph therefore gets a sandbox: a NOLOGIN role
-- zaxy_cy_<hash> (the graph's own hash) with USAGE on ag_catalog and on that one graph's
-- schema and SELECT on its label tables, and nothing else: no other schema's tables, no
-- membership in any role (so pg_terminate_backend on the service's backends is refused), and
-- no CREATE anywhere. The only object it owns is its runner, zaxy_cypher.<graph>(...), a
-- SECURITY DEFINER function that runs one cypher() call on that graph: inside a security
-- definer function Postgres refuses SET ROLE and SET SESSION AUTHORIZATION, so the query
-- cannot climb back to the service's role (a plain SET LOCAL ROLE could be undone with
-- set_config('role', ...)). The service only has EXECUTE on the runners, and always rolls
-- the transaction back.
--
-- Roles are cluster-wide and named after the space's graph, so two databases of one cluster
-- with a space of the same name share the role; its grants are per database, so neither can
-- reach the other. Creating the role needs CREATEROLE (or superuser) and giving it the
-- runner needs superuser or membership in it; without them the graph is still mirrored, no
-- runner is created, and the Cypher endpoint refuses to run (fails closed, docs/operations.md).

CREATE SCHEMA IF NOT EXISTS zaxy_cypher;
REVOKE ALL ON SCHEMA zaxy_cypher FROM PUBLIC;

-- The SECURITY DEFINER functions of earlier migrations were executable by PUBLIC, so any role
-- (a sandbox role included) could have called them as their owner. Only zaxy_app needs them.
REVOKE EXECUTE ON FUNCTION zaxy_age_graph(text), zaxy_age_sync(text, text[], text[]),
  zaxy_age_drop(text), zaxy_ensure_vector_index(text, integer) FROM PUBLIC;

-- Creates (or refreshes) the sandbox role and runner of graph g. Returns whether the runner
-- exists afterwards. Called by zaxy_age_graph; never by the service.
CREATE FUNCTION zaxy_cypher_sandbox(g text) RETURNS boolean
LANGUAGE plpgsql SET search_path = public, ag_catalog, pg_temp AS $fn$
DECLARE
  r text := 'zaxy_cy_' || substr(g, 4);
BEGIN
  IF g !~ '^zs_[0-9a-f]{24}$' THEN
    RAISE EXCEPTION 'not a zaxy graph name: %', g USING ERRCODE = '22023';
  END IF;
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
  EXECUTE format('GRANT USAGE ON SCHEMA ag_catalog TO %I', r);
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

-- As in 000004, and each new graph gets its sandbox.
CREATE OR REPLACE FUNCTION zaxy_age_graph(p_space text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
BEGIN
  SELECT graph_name INTO g FROM age_graphs WHERE space_id = p_space;
  IF FOUND THEN
    RETURN g;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'age') THEN
    RAISE EXCEPTION 'Apache AGE is not installed in this database' USING ERRCODE = 'ZX011';
  END IF;
  PERFORM pg_advisory_xact_lock(1517840764, hashtext(p_space));
  SELECT graph_name INTO g FROM age_graphs WHERE space_id = p_space;
  IF FOUND THEN
    RETURN g;
  END IF;
  g := 'zs_' || substr(encode(sha256(convert_to(p_space, 'UTF8')), 'hex'), 1, 24);
  PERFORM ag_catalog.create_graph(g::name);
  PERFORM ag_catalog.create_vlabel(g::name, 'Entity'::name);
  PERFORM ag_catalog.create_vlabel(g::name, 'Value'::name);
  PERFORM ag_catalog.create_elabel(g::name, 'FACT'::name);
  EXECUTE format('CREATE INDEX ON %I."Entity" (id)', g);
  EXECUTE format('CREATE INDEX ON %I."Value" (id)', g);
  EXECUTE format('CREATE INDEX ON %I."FACT" (id)', g);
  EXECUTE format('CREATE INDEX ON %I."FACT" (start_id)', g);
  EXECUTE format('CREATE INDEX ON %I."FACT" (end_id)', g);
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO zaxy_app', g);
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO zaxy_app', g);
  END IF;
  PERFORM zaxy_cypher_sandbox(g);
  INSERT INTO age_graphs (space_id, graph_name) VALUES (p_space, g);
  RETURN g;
END $$;

-- As in 000004, and the graph's runner goes with it (its role stays: it owns nothing else and
-- may serve a space of the same name in another database).
CREATE OR REPLACE FUNCTION zaxy_age_drop(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
BEGIN
  SELECT graph_name INTO g FROM age_graphs WHERE space_id = p_space;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  EXECUTE format('DROP FUNCTION IF EXISTS zaxy_cypher.%I(text, integer, integer, integer, bigint)', g);
  PERFORM ag_catalog.drop_graph(g::name, true);
  DELETE FROM age_graphs WHERE space_id = p_space;
  UPDATE entities SET age_node = NULL WHERE space_id = p_space AND age_node IS NOT NULL;
  UPDATE facts SET age_edge = NULL, age_value_node = NULL WHERE space_id = p_space AND age_edge IS NOT NULL;
END $$;

-- The AGE mirror check: a digest of what the relational graph says the space's AGE graph
-- holds (every mirrored vertex and edge with its graph id, endpoints and properties) and a
-- digest of what the AGE graph does hold, rendered the same way, with their line counts.
-- Properties are compared as jsonb, so key order and spacing do not matter. A space with
-- nothing to mirror and no graph gives two empty digests.
CREATE FUNCTION zaxy_age_mirror_digest(p_space text,
  OUT expected text, OUT actual text, OUT expected_lines bigint, OUT actual_lines bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
BEGIN
  SELECT encode(sha256(convert_to(coalesce(string_agg(line, E'\n' ORDER BY line), ''), 'UTF8')), 'hex'), count(*)
    INTO expected, expected_lines
  FROM (
    SELECT concat_ws('|', 'E', coalesce(e.age_node::text, 'unmirrored:' || e.entity_id),
             jsonb_build_object('space', e.space_id, 'id', e.entity_id, 'key', e.key, 'name', e.name,
               'kinds', to_jsonb(e.kinds), 'version', e.version, 'first_seq', e.first_seq,
               'invalidated_seq', e.invalidated_seq)::text) AS line
    FROM entities e WHERE e.space_id = p_space
    UNION ALL
    SELECT concat_ws('|', 'F', coalesce(f.age_edge::text, 'unmirrored:' || f.fact_id), s.age_node,
             coalesce(o.age_node, f.age_value_node),
             jsonb_build_object('space', f.space_id, 'id', f.fact_id, 'predicate', f.predicate,
               'version', f.version, 'status', f.status, 'valid_from', f.valid_from, 'valid_to', f.valid_to,
               'recorded_seq', f.recorded_seq, 'closed_seq', f.closed_seq, 'superseded_by', f.superseded_by,
               'authority', f.authority, 'inferred', f.inferred, 'value', f.value)::text)
    FROM facts f
    JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
    LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
    WHERE f.space_id = p_space
    UNION ALL
    SELECT concat_ws('|', 'V', coalesce(f.age_value_node::text, 'unmirrored:' || f.fact_id),
             jsonb_build_object('space', f.space_id, 'fact_id', f.fact_id, 'value', f.value)::text)
    FROM facts f WHERE f.space_id = p_space AND f.value IS NOT NULL
  ) want;

  SELECT graph_name INTO g FROM age_graphs WHERE space_id = p_space;
  IF NOT FOUND OR NOT EXISTS (SELECT FROM pg_extension WHERE extname = 'age')
     OR to_regnamespace(quote_ident(g)) IS NULL THEN
    actual := encode(sha256(''::bytea), 'hex');
    actual_lines := 0;
    RETURN;
  END IF;
  EXECUTE format($q$
    SELECT encode(sha256(convert_to(coalesce(string_agg(line, E'\n' ORDER BY line), ''), 'UTF8')), 'hex'), count(*)
    FROM (
      SELECT concat_ws('|', 'E', id::text, ag_catalog.agtype_out(properties)::text::jsonb::text) AS line FROM %1$I."Entity"
      UNION ALL
      SELECT concat_ws('|', 'F', id::text, start_id::text, end_id::text, ag_catalog.agtype_out(properties)::text::jsonb::text) FROM %1$I."FACT"
      UNION ALL
      SELECT concat_ws('|', 'V', id::text, ag_catalog.agtype_out(properties)::text::jsonb::text) FROM %1$I."Value"
      UNION ALL
      SELECT concat_ws('|', 'X', id::text, ag_catalog.agtype_out(properties)::text) FROM %1$I._ag_label_vertex
      WHERE tableoid NOT IN (%2$L::regclass, %3$L::regclass)
      UNION ALL
      SELECT concat_ws('|', 'Y', id::text, ag_catalog.agtype_out(properties)::text) FROM %1$I._ag_label_edge
      WHERE tableoid <> %4$L::regclass
    ) have
  $q$, g, format('%I.%I', g, 'Entity'), format('%I.%I', g, 'Value'), format('%I.%I', g, 'FACT'))
  INTO actual, actual_lines;
END $$;
REVOKE EXECUTE ON FUNCTION zaxy_age_mirror_digest(text) FROM PUBLIC;

DO $$
DECLARE
  g text;
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT USAGE ON SCHEMA zaxy_cypher TO zaxy_app;
    GRANT EXECUTE ON FUNCTION zaxy_age_mirror_digest(text) TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_extension WHERE extname = 'age') THEN
    FOR g IN SELECT graph_name FROM age_graphs ORDER BY graph_name LOOP
      PERFORM zaxy_cypher_sandbox(g);
    END LOOP;
  END IF;
END $$;
