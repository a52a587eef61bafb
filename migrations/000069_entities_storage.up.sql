-- Storage (docs/benchmarks.md, "Entities and the graph mirror"):
--
-- 1. An entity or a fact version is written once. The projector gives a new row its graph ids
--    (entities.age_node; facts.age_edge and age_value_node) as it inserts it, from
--    zaxy_age_ids, so zaxy_age_sync no longer updates every new row right after its insert:
--    that second version of each row, on a page the insert had filled, went to another page
--    with an entry in every index (almost no update was HOT), and left about 16 % of the
--    entities heap free or dead after vacuum.
-- 2. entities no longer repeats the hash of the event that first named an entity: events has
--    it by (space_id, first_seq), where the readers take it.
-- 3. The graph mirror's vertices and edges no longer carry the space (each space is a graph of
--    its own), and an Entity vertex carries invalidated_seq only once it is set (a Cypher
--    read of a missing property is null, as before).
-- 4. entities has no index on (space_id, key): an entity's id is a hash of its space and key
--    (graph.EntityID), so the readers look an entity up by key through the id it gives, and
--    the primary key keeps keys unique within a space.
--
-- CLUSTER rewrites entities so the dropped bytes (and the versions the sync's updates left) are
-- given back now; the clustering mark is taken off again. The graphs are not rewritten (below).

ALTER TABLE entities DROP COLUMN first_hash;
ALTER TABLE entities DROP CONSTRAINT entities_key_unique;
CLUSTER entities USING entities_pkey;
ALTER TABLE entities SET WITHOUT CLUSTER;

-- Reserves p_count graph ids of one of the space's mirror labels ('Entity', 'FACT' or 'Value'),
-- as bigint, creating the space's graph the first time; none (and no graph) for a count of
-- zero.
CREATE FUNCTION zaxy_age_ids(p_space text, p_label text, p_count integer) RETURNS bigint[]
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
  ids bigint[];
BEGIN
  IF p_label IS NULL OR p_label NOT IN ('Entity', 'FACT', 'Value') THEN
    RAISE EXCEPTION 'zaxy_age_ids: no mirror label %', p_label USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF coalesce(p_count, 0) <= 0 THEN
    RETURN '{}';
  END IF;
  g := zaxy_age_graph(p_space);
  EXECUTE format($q$
    SELECT array_agg(ag_catalog._graphid(l.id, nextval(%3$L::regclass))::text::bigint)
    FROM generate_series(1, $1), (SELECT ag_catalog._label_id(%1$L, %2$L)::int AS id) l
  $q$, g, p_label, format('%I.%I', g, p_label || '_id_seq')) INTO ids USING p_count;
  RETURN ids;
END $$;

-- Mirrors the given entities and facts of a space (their current relational state) into its
-- graph: an entity or fact whose graph id has no vertex or edge yet gets one (a row without
-- ids, one stored before its space's graph was made, gets them here), known ones get their
-- properties replaced.
CREATE OR REPLACE FUNCTION zaxy_age_sync(p_space text, p_entities text[], p_facts text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text := zaxy_age_graph(p_space);
BEGIN
  IF cardinality(p_entities) > 0 THEN
    EXECUTE format($q$
      WITH todo AS (
        SELECT e.entity_id, e.age_node,
               e.age_node IS NOT NULL AND EXISTS (
                 SELECT FROM %1$I."Entity" v WHERE v.id = e.age_node::text::ag_catalog.graphid) AS mirrored,
               jsonb_strip_nulls(jsonb_build_object('id', e.entity_id, 'key', e.key, 'name', e.name,
                 'kinds', to_jsonb(e.kinds), 'version', e.version, 'first_seq', e.first_seq,
                 'invalidated_seq', e.invalidated_seq))::text AS props
        FROM entities e WHERE e.space_id = $1 AND e.entity_id = ANY ($2)
      ), fresh AS (
        SELECT t.entity_id, t.props, t.age_node IS NULL AS assign,
               coalesce(t.age_node::text::ag_catalog.graphid,
                 ag_catalog._graphid(ag_catalog._label_id(%1$L, 'Entity')::int, nextval(%2$L::regclass))) AS gid
        FROM todo t WHERE NOT t.mirrored
      ), ins AS (
        INSERT INTO %1$I."Entity" (id, properties) SELECT gid, props::ag_catalog.agtype FROM fresh
      ), upd AS (
        UPDATE %1$I."Entity" v SET properties = t.props::ag_catalog.agtype
        FROM todo t WHERE t.mirrored AND v.id = t.age_node::text::ag_catalog.graphid
      )
      UPDATE entities e SET age_node = f.gid::text::bigint
      FROM fresh f WHERE f.assign AND e.space_id = $1 AND e.entity_id = f.entity_id
    $q$, g, format('%I.%I', g, 'Entity_id_seq')) USING p_space, p_entities;
  END IF;
  IF cardinality(p_facts) > 0 THEN
    EXECUTE format($q$
      WITH todo AS (
        SELECT f.fact_id, f.age_edge, f.age_value_node, s.age_node AS start_node, o.age_node AS end_node,
               f.age_edge IS NOT NULL AND EXISTS (
                 SELECT FROM %1$I."FACT" x WHERE x.id = f.age_edge::text::ag_catalog.graphid) AS mirrored,
               jsonb_build_object('id', f.fact_id, 'predicate', f.predicate,
                 'version', f.version, 'status', f.status, 'valid_from', f.valid_from, 'valid_to', f.valid_to,
                 'recorded_seq', f.recorded_seq, 'closed_seq', f.closed_seq, 'superseded_by', f.superseded_by,
                 'authority', f.authority, 'inferred', f.inferred, 'value', f.value)::text AS props,
               CASE WHEN f.value IS NOT NULL THEN
                 jsonb_build_object('fact_id', f.fact_id, 'value', f.value)::text END AS vprops
        FROM facts f
        JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
        LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
        WHERE f.space_id = $1 AND f.fact_id = ANY ($2)
      ), fresh AS (
        SELECT t.*, t.age_edge IS NULL AS assign,
               coalesce(t.age_edge::text::ag_catalog.graphid,
                 ag_catalog._graphid(ag_catalog._label_id(%1$L, 'FACT')::int, nextval(%2$L::regclass))) AS gid,
               CASE WHEN t.vprops IS NOT NULL THEN
                 coalesce(t.age_value_node::text::ag_catalog.graphid,
                   ag_catalog._graphid(ag_catalog._label_id(%1$L, 'Value')::int, nextval(%3$L::regclass))) END AS vgid
        FROM todo t WHERE NOT t.mirrored
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
        FROM todo t WHERE t.mirrored AND x.id = t.age_edge::text::ag_catalog.graphid
      )
      UPDATE facts f SET age_edge = n.gid::text::bigint, age_value_node = n.vgid::text::bigint
      FROM fresh n WHERE n.assign AND f.space_id = $1 AND f.fact_id = n.fact_id
    $q$, g, format('%I.%I', g, 'FACT_id_seq'), format('%I.%I', g, 'Value_id_seq')) USING p_space, p_facts;
  END IF;
END $$;

-- The AGE mirror check, with the properties zaxy_age_sync writes; a vertex or edge mirrored
-- before this migration is read without its "space" (and a vertex without a null
-- invalidated_seq), as the sync writes it now. (CREATE OR REPLACE keeps the grants.)
CREATE OR REPLACE FUNCTION zaxy_age_mirror_digest(p_space text,
  OUT expected text, OUT actual text, OUT expected_lines bigint, OUT actual_lines bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
BEGIN
  SELECT encode(sha256(convert_to(coalesce(string_agg(line, E'\n' ORDER BY line), ''), 'UTF8')), 'hex'), count(*)
    INTO expected, expected_lines
  FROM (
    SELECT concat_ws('|', 'E', coalesce(e.age_node::text, 'unmirrored:' || e.entity_id),
             jsonb_strip_nulls(jsonb_build_object('id', e.entity_id, 'key', e.key, 'name', e.name,
               'kinds', to_jsonb(e.kinds), 'version', e.version, 'first_seq', e.first_seq,
               'invalidated_seq', e.invalidated_seq))::text) AS line
    FROM entities e WHERE e.space_id = p_space
    UNION ALL
    SELECT concat_ws('|', 'F', coalesce(f.age_edge::text, 'unmirrored:' || f.fact_id), s.age_node,
             coalesce(o.age_node, f.age_value_node),
             jsonb_build_object('id', f.fact_id, 'predicate', f.predicate,
               'version', f.version, 'status', f.status, 'valid_from', f.valid_from, 'valid_to', f.valid_to,
               'recorded_seq', f.recorded_seq, 'closed_seq', f.closed_seq, 'superseded_by', f.superseded_by,
               'authority', f.authority, 'inferred', f.inferred, 'value', f.value)::text)
    FROM facts f
    JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
    LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
    WHERE f.space_id = p_space
    UNION ALL
    SELECT concat_ws('|', 'V', coalesce(f.age_value_node::text, 'unmirrored:' || f.fact_id),
             jsonb_build_object('fact_id', f.fact_id, 'value', f.value)::text)
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
      SELECT concat_ws('|', 'E', id::text, jsonb_strip_nulls(ag_catalog.agtype_out(properties)::text::jsonb - 'space')::text) AS line FROM %1$I."Entity"
      UNION ALL
      SELECT concat_ws('|', 'F', id::text, start_id::text, end_id::text, (ag_catalog.agtype_out(properties)::text::jsonb - 'space')::text) FROM %1$I."FACT"
      UNION ALL
      SELECT concat_ws('|', 'V', id::text, (ag_catalog.agtype_out(properties)::text::jsonb - 'space')::text) FROM %1$I."Value"
      UNION ALL
      SELECT concat_ws('|', 'X', id::text, ag_catalog.agtype_out(properties)::text) FROM %1$I._ag_label_vertex
      WHERE tableoid NOT IN (%2$L::regclass, %3$L::regclass)
        AND tableoid::oid NOT IN (SELECT coalesce(to_regclass(format('%%I.%%I', %1$L, l))::oid, 0) FROM unnest(%5$L::text[]) l)
      UNION ALL
      SELECT concat_ws('|', 'Y', id::text, ag_catalog.agtype_out(properties)::text) FROM %1$I._ag_label_edge
      WHERE tableoid <> %4$L::regclass
        AND tableoid::oid NOT IN (SELECT coalesce(to_regclass(format('%%I.%%I', %1$L, l))::oid, 0) FROM unnest(%5$L::text[]) l)
    ) have
  $q$, g, format('%I.%I', g, 'Entity'), format('%I.%I', g, 'Value'), format('%I.%I', g, 'FACT'),
     ARRAY['LatentArtifact', 'SourceEvent', 'DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS',
           'OCCURS_IN', 'FOLLOWS', 'EXPLAINS', 'SHARES_CAUSE', 'WARNS'])
  INTO actual, actual_lines;
END $$;

-- The graphs mirrored so far are not rewritten here: a migration that touched every space's
-- label tables would hold locks on all of them until it commits, which a database of a few
-- hundred spaces cannot grant (out of shared memory). Their vertices and edges keep "space"
-- (and a vertex a null invalidated_seq) until a later write of theirs or `zaxy rebuild`; the
-- mirror check above reads those properties as the projector writes them now.

REVOKE EXECUTE ON FUNCTION zaxy_age_ids(text, text, integer) FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_age_ids(text, text, integer) TO zaxy_app;
  END IF;
END $$;
