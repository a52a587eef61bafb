-- Reverses 000009_cypher_sandbox.up.sql: the runners go with their schema; the functions of
-- 000004 are restored as they were (EXECUTE to PUBLIC included). The sandbox roles are
-- cluster-wide and may serve other databases, so they are dropped only where nothing in the
-- cluster still depends on them.
DROP FUNCTION IF EXISTS zaxy_age_mirror_digest(text);
DROP SCHEMA IF EXISTS zaxy_cypher CASCADE;

CREATE OR REPLACE FUNCTION zaxy_age_graph(p_space text) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
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
  INSERT INTO age_graphs (space_id, graph_name) VALUES (p_space, g);
  RETURN g;
END $$;

CREATE OR REPLACE FUNCTION zaxy_age_drop(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text;
BEGIN
  SELECT graph_name INTO g FROM age_graphs WHERE space_id = p_space;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM ag_catalog.drop_graph(g::name, true);
  DELETE FROM age_graphs WHERE space_id = p_space;
  UPDATE entities SET age_node = NULL WHERE space_id = p_space AND age_node IS NOT NULL;
  UPDATE facts SET age_edge = NULL, age_value_node = NULL WHERE space_id = p_space AND age_edge IS NOT NULL;
END $$;

DO $$
DECLARE
  g text;
BEGIN
  FOR g IN SELECT graph_name FROM age_graphs LOOP
    BEGIN
      EXECUTE format('REVOKE ALL ON SCHEMA ag_catalog FROM %I', 'zaxy_cy_' || substr(g, 4));
      EXECUTE format('REVOKE ALL ON SCHEMA %I FROM %I', g, 'zaxy_cy_' || substr(g, 4));
      EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA %I FROM %I', g, 'zaxy_cy_' || substr(g, 4));
      EXECUTE format('DROP ROLE %I', 'zaxy_cy_' || substr(g, 4));
    EXCEPTION WHEN undefined_object OR dependent_objects_still_exist OR insufficient_privilege THEN
      NULL;
    END;
  END LOOP;
END $$;
DROP FUNCTION IF EXISTS zaxy_cypher_sandbox(text);
GRANT EXECUTE ON FUNCTION zaxy_age_graph(text), zaxy_age_sync(text, text[], text[]),
  zaxy_age_drop(text), zaxy_ensure_vector_index(text, integer) TO PUBLIC;
