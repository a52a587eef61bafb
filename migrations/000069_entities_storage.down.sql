-- Reverses 000069_entities_storage.up.sql: entities carry the hash of the event that first
-- named them again and are unique by (space_id, key) again, zaxy_age_sync and the mirror
-- check write and expect the space (and a null invalidated_seq) in every vertex and edge
-- again, and a new entity or fact gets its graph ids from the sync.
ALTER TABLE entities ADD COLUMN first_hash bytea;
UPDATE entities x SET first_hash = e.hash FROM events e WHERE e.space_id = x.space_id AND e.seq = x.first_seq;
ALTER TABLE entities ALTER COLUMN first_hash SET NOT NULL;
ALTER TABLE entities ADD CONSTRAINT entities_key_unique UNIQUE (space_id, key);

DROP FUNCTION zaxy_age_ids(text, text, integer);

-- Mirrors the given entities and facts of a space (their current relational state) into its
-- graph: new rows become vertices and edges, known ones get their properties replaced.
CREATE OR REPLACE FUNCTION zaxy_age_sync(p_space text, p_entities text[], p_facts text[]) RETURNS void
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

-- The AGE mirror check (zaxy doctor) leaves the latent labels out, the five new edge labels
-- too; a vertex or edge written without "space" (or a vertex without invalidated_seq) is read
-- with them, as this sync writes it. (CREATE OR REPLACE keeps the grants.)
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
      SELECT concat_ws('|', 'E', id::text, (jsonb_build_object('space', $1::text, 'invalidated_seq', null) || ag_catalog.agtype_out(properties)::text::jsonb)::text) AS line FROM %1$I."Entity"
      UNION ALL
      SELECT concat_ws('|', 'F', id::text, start_id::text, end_id::text, (ag_catalog.agtype_out(properties)::text::jsonb || jsonb_build_object('space', $1::text))::text) FROM %1$I."FACT"
      UNION ALL
      SELECT concat_ws('|', 'V', id::text, (ag_catalog.agtype_out(properties)::text::jsonb || jsonb_build_object('space', $1::text))::text) FROM %1$I."Value"
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
  INTO actual, actual_lines USING p_space;
END $$;

-- The graphs are not rewritten (as the up migration does not rewrite them): the vertices and
-- edges mirrored since keep their properties without "space" until a later write of theirs or
-- `zaxy rebuild`, and the mirror check above reads them with it.
