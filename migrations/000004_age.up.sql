-- The Apache AGE mirror of the temporal graph: one Cypher graph per space (so a Cypher query
-- can only ever see its own space), holding Entity vertices, Value vertices (the literal end of
-- a fact with a value) and FACT edges. It is written by the projector in the same transaction
-- as the relational rows, in bulk through the label tables rather than Cypher CREATE.
-- AGE is optional: without it this migration only adds the bookkeeping below, and the
-- functions fail with SQLSTATE ZX011 when called.

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_available_extensions WHERE name = 'age') THEN
    BEGIN
      CREATE EXTENSION IF NOT EXISTS age;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'AGE is available but this role may not create it; the Cypher mirror stays off (docs/operations.md)';
    END;
  ELSE
    RAISE NOTICE 'AGE is not installed; the Cypher mirror is off';
  END IF;
END $$;

-- The graph vertex or edge id (AGE graphid as bigint) of each mirrored row.
ALTER TABLE entities ADD COLUMN age_node bigint;
ALTER TABLE facts ADD COLUMN age_edge bigint, ADD COLUMN age_value_node bigint;

-- Which AGE graph holds each space.
CREATE TABLE age_graphs (
  space_id   text PRIMARY KEY REFERENCES spaces (space_id),
  graph_name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Returns the AGE graph of a space, creating it (with its labels) the first time.
CREATE FUNCTION zaxy_age_graph(p_space text) RETURNS text
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
  -- AGE's label tables have no index on id: without these, every mirrored update of a vertex
  -- or edge scans its whole label table, and Cypher traversals scan edges.
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

-- Mirrors the given entities and facts of a space (their current relational state) into its
-- graph: new rows become vertices and edges, known ones get their properties replaced.
CREATE FUNCTION zaxy_age_sync(p_space text, p_entities text[], p_facts text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text := zaxy_age_graph(p_space);
BEGIN
  IF cardinality(p_entities) > 0 THEN
    EXECUTE format($q$
      WITH todo AS (
        SELECT e.entity_id, e.age_node,
               jsonb_build_object('space', e.space_id, 'id', e.entity_id, 'key', e.key, 'name', e.name,
                 'kinds', to_jsonb(e.kinds), 'version', e.version, 'first_seq', e.first_seq,
                 'invalidated_seq', e.invalidated_seq)::text AS props
        FROM entities e WHERE e.space_id = $1 AND e.entity_id = ANY ($2)
      ), fresh AS (
        SELECT t.entity_id, t.props,
               ag_catalog._graphid(ag_catalog._label_id(%1$L, 'Entity')::int, nextval(%2$L::regclass)) AS gid
        FROM todo t WHERE t.age_node IS NULL
      ), ins AS (
        INSERT INTO %1$I."Entity" (id, properties) SELECT gid, props::ag_catalog.agtype FROM fresh
      ), upd AS (
        UPDATE %1$I."Entity" v SET properties = t.props::ag_catalog.agtype
        FROM todo t WHERE t.age_node IS NOT NULL AND v.id = t.age_node::text::ag_catalog.graphid
      )
      UPDATE entities e SET age_node = f.gid::text::bigint
      FROM fresh f WHERE e.space_id = $1 AND e.entity_id = f.entity_id
    $q$, g, format('%I.%I', g, 'Entity_id_seq')) USING p_space, p_entities;
  END IF;
  IF cardinality(p_facts) > 0 THEN
    EXECUTE format($q$
      WITH todo AS (
        SELECT f.fact_id, f.age_edge, f.age_value_node, s.age_node AS start_node, o.age_node AS end_node,
               jsonb_build_object('space', f.space_id, 'id', f.fact_id, 'predicate', f.predicate,
                 'version', f.version, 'status', f.status, 'valid_from', f.valid_from, 'valid_to', f.valid_to,
                 'recorded_seq', f.recorded_seq, 'closed_seq', f.closed_seq, 'superseded_by', f.superseded_by,
                 'authority', f.authority, 'inferred', f.inferred, 'value', f.value)::text AS props,
               CASE WHEN f.value IS NOT NULL THEN
                 jsonb_build_object('space', f.space_id, 'fact_id', f.fact_id, 'value', f.value)::text END AS vprops
        FROM facts f
        JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
        LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
        WHERE f.space_id = $1 AND f.fact_id = ANY ($2)
      ), fresh AS (
        SELECT t.*,
               ag_catalog._graphid(ag_catalog._label_id(%1$L, 'FACT')::int, nextval(%2$L::regclass)) AS gid,
               CASE WHEN t.vprops IS NOT NULL THEN
                 ag_catalog._graphid(ag_catalog._label_id(%1$L, 'Value')::int, nextval(%3$L::regclass)) END AS vgid
        FROM todo t WHERE t.age_edge IS NULL
      ), vins AS (
        INSERT INTO %1$I."Value" (id, properties)
        SELECT vgid, vprops::ag_catalog.agtype FROM fresh WHERE vgid IS NOT NULL
      ), eins AS (
        INSERT INTO %1$I."FACT" (id, start_id, end_id, properties)
        SELECT gid, start_node::text::ag_catalog.graphid,
               coalesce(end_node::text::ag_catalog.graphid, vgid), props::ag_catalog.agtype
        FROM fresh
      ), upd AS (
        UPDATE %1$I."FACT" x SET properties = t.props::ag_catalog.agtype
        FROM todo t WHERE t.age_edge IS NOT NULL AND x.id = t.age_edge::text::ag_catalog.graphid
      )
      UPDATE facts f SET age_edge = n.gid::text::bigint, age_value_node = n.vgid::text::bigint
      FROM fresh n WHERE f.space_id = $1 AND f.fact_id = n.fact_id
    $q$, g, format('%I.%I', g, 'FACT_id_seq'), format('%I.%I', g, 'Value_id_seq')) USING p_space, p_facts;
  END IF;
END $$;

-- Drops a space's graph (a rebuild recreates it).
CREATE FUNCTION zaxy_age_drop(p_space text) RETURNS void
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
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT ON age_graphs TO zaxy_app;
    GRANT EXECUTE ON FUNCTION zaxy_age_graph(text), zaxy_age_sync(text, text[], text[]), zaxy_age_drop(text) TO zaxy_app;
    IF EXISTS (SELECT FROM pg_extension WHERE extname = 'age') THEN
      GRANT USAGE ON SCHEMA ag_catalog TO zaxy_app;
    END IF;
  END IF;
END $$;
