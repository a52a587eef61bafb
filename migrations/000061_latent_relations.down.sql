-- Restores 000043's zaxy_age_latent_sync (verbatim), then drops what 000061 added; every
-- space's latent mirror is written whole again at its next build, without the relation edges.

-- Mirrors a space's artifacts into its AGE graph: LatentArtifact vertices, SourceEvent vertices
-- for the cited events, and DERIVED_FROM (artifact -> event), COVERS (artifact -> Entity),
-- SUPERSEDES and CONTRADICTS (artifact -> artifact) edges, the same mirror the full rewrite of
-- 000019 made (TestBuild_TheMirrorKeptByDifferenceEqualsARewrite), by difference:
--   * a vertex whose artifact is gone or shows other properties (staled, reviewed, valid_to)
--     goes with its edges; an artifact without a vertex gets one, with its DERIVED_FROM and
--     COVERS edges (an artifact's sources and entities are part of its content address);
--   * a SourceEvent vertex goes when no artifact cites its seq any more (latent_sources), and a
--     newly cited seq gets one;
--   * COVERS of a vertex whose entity had no vertex yet are made again until it has;
--   * SUPERSEDES and CONTRADICTS (few) are compared whole, wanted against there.
-- Only the artifacts a statement on latent_artifacts touched since the last sync are compared
-- (latent_age_dirty, kept by triggers; 000043): before, every vertex of the space was compared
-- with its artifact at every build. When the graph is not the one the bookkeeping describes (it
-- was dropped with zaxy_age_drop and made again), the space's latent mirror is rewritten whole:
-- every artifact of the space counts as touched.
-- It works without temporary tables (each cost about 3 ms of catalog work). Written through the
-- label tables, as zaxy_age_sync; no user text is ever formatted into a statement.
CREATE OR REPLACE FUNCTION zaxy_age_latent_sync(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text := zaxy_age_graph(p_space);
  l text;
  g_label oid;
  created boolean := false;
  gone_gids bigint[];
  gone_seqs bigint[];
  added_ids text[];
  pending_gids bigint[];
BEGIN
  FOREACH l IN ARRAY ARRAY['LatentArtifact', 'SourceEvent'] LOOP
    IF NOT EXISTS (SELECT FROM ag_catalog.ag_label x JOIN ag_catalog.ag_graph y ON y.graphid = x.graph
                   WHERE y.name = g::name AND x.name = l::name) THEN
      PERFORM ag_catalog.create_vlabel(g::name, l::name);
      EXECUTE format('CREATE INDEX ON %I.%I (id)', g, l);
      created := true;
    END IF;
  END LOOP;
  FOREACH l IN ARRAY ARRAY['DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS'] LOOP
    IF NOT EXISTS (SELECT FROM ag_catalog.ag_label x JOIN ag_catalog.ag_graph y ON y.graphid = x.graph
                   WHERE y.name = g::name AND x.name = l::name) THEN
      PERFORM ag_catalog.create_elabel(g::name, l::name);
      EXECUTE format('CREATE INDEX ON %I.%I (start_id)', g, l);
      created := true;
    END IF;
  END LOOP;
  -- New label tables are readable by the app and by the graph's Cypher sandbox role (000009).
  IF created AND EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO zaxy_app', g);
  END IF;
  IF created AND EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_cy_' || substr(g, 4)) THEN
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', g, 'zaxy_cy_' || substr(g, 4));
  END IF;
  g_label := to_regclass(format('%I.%I', g, 'LatentArtifact'))::oid;
  IF NOT EXISTS (SELECT FROM latent_age_spaces s WHERE s.space_id = p_space AND s.label = g_label) THEN
    EXECUTE format('DELETE FROM %I."DERIVED_FROM"; DELETE FROM %1$I."COVERS"; DELETE FROM %1$I."SUPERSEDES";
                    DELETE FROM %1$I."CONTRADICTS"; DELETE FROM %1$I."LatentArtifact"; DELETE FROM %1$I."SourceEvent"', g);
    DELETE FROM latent_age_vertices WHERE space_id = p_space;
    DELETE FROM latent_age_events WHERE space_id = p_space;
    INSERT INTO latent_age_spaces AS s (space_id, label) VALUES (p_space, g_label)
    ON CONFLICT (space_id) DO UPDATE SET label = excluded.label;
    INSERT INTO latent_age_dirty (space_id, artifact_id)
    SELECT p_space, a.artifact_id FROM latent_artifacts a WHERE a.space_id = p_space
    ON CONFLICT DO NOTHING;
  END IF;

  -- Vertices whose artifact is gone or shows other lifecycle values (its content is its id, so
  -- nothing else of it can change) go, with the edges leaving them (SUPERSEDES and CONTRADICTS
  -- edges reaching them go in the comparison below); the events they cited are checked below.
  WITH touched AS (
    DELETE FROM latent_age_dirty d WHERE d.space_id = p_space RETURNING d.artifact_id
  ), gone AS (
    DELETE FROM latent_age_vertices v
    USING touched t
    WHERE v.space_id = p_space AND v.artifact_id = t.artifact_id
      AND NOT EXISTS (SELECT FROM latent_artifacts a
                      WHERE a.space_id = p_space AND a.artifact_id = v.artifact_id AND zaxy_latent_digest(a) = v.digest)
    RETURNING v.gid, v.sources, v.artifact_id
  ), added AS (
    -- Touched artifacts without a vertex, or whose vertex goes now.
    SELECT a.artifact_id FROM touched t JOIN latent_artifacts a ON a.space_id = p_space AND a.artifact_id = t.artifact_id
    WHERE NOT EXISTS (SELECT FROM latent_age_vertices v WHERE v.space_id = p_space AND v.artifact_id = a.artifact_id)
       OR EXISTS (SELECT FROM gone g WHERE g.artifact_id = a.artifact_id)
  )
  SELECT coalesce((SELECT array_agg(gid) FROM gone), '{}'),
         coalesce((SELECT array_agg(DISTINCT s) FROM gone, unnest(gone.sources) s), '{}'),
         coalesce((SELECT array_agg(artifact_id) FROM added), '{}')
  INTO gone_gids, gone_seqs, added_ids;
  IF cardinality(gone_gids) = 0 AND cardinality(added_ids) = 0
     AND NOT EXISTS (SELECT FROM latent_age_vertices v WHERE v.space_id = p_space AND v.covers_pending) THEN
    RETURN; -- nothing changed
  END IF;
  IF cardinality(gone_gids) > 0 THEN
    FOREACH l IN ARRAY ARRAY['DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS'] LOOP
      EXECUTE format('DELETE FROM %I.%I e WHERE e.start_id = ANY ($1::text[]::ag_catalog.graphid[])', g, l) USING gone_gids;
    END LOOP;
    EXECUTE format('DELETE FROM %I."LatentArtifact" v WHERE v.id = ANY ($1::text[]::ag_catalog.graphid[])', g) USING gone_gids;
    -- Source events no artifact cites any more go (only a gone vertex's can be one).
    EXECUTE format($q$
      WITH uncited AS (
        DELETE FROM latent_age_events e
        WHERE e.space_id = $1 AND e.seq = ANY ($2)
          AND NOT EXISTS (SELECT FROM latent_sources c WHERE c.space_id = $1 AND c.seq = e.seq)
        RETURNING e.gid
      )
      DELETE FROM %1$I."SourceEvent" v USING uncited u WHERE v.id = u.gid::text::ag_catalog.graphid
    $q$, g) USING p_space, gone_seqs;
  END IF;

  IF cardinality(added_ids) > 0 THEN
    -- Artifacts without a vertex get one.
    EXECUTE format($q$
      WITH added AS (
        SELECT a.artifact_id, zaxy_latent_digest(a) AS digest, a.source_seqs,
               jsonb_build_object('space', a.space_id, 'id', a.artifact_id, 'type', a.artifact_type,
                 'summary', a.summary, 'method', a.method, 'confidence', a.confidence, 'review_status', a.review_status,
                 'authority_status', a.authority_status, 'valid_from', a.valid_from, 'valid_to', a.valid_to,
                 'stale_at', a.stale_at, 'stale_reason', a.stale_reason, 'purpose_profile', a.purpose_profile,
                 'reasoning_phase', a.reasoning_phase) AS props,
               ag_catalog._graphid(ag_catalog._label_id(%1$L, 'LatentArtifact')::int, nextval(%2$L::regclass)) AS gid
        FROM latent_artifacts a WHERE a.space_id = $1 AND a.artifact_id = ANY ($2)
      ), vertices AS (
        INSERT INTO %1$I."LatentArtifact" (id, properties) SELECT gid, props::text::ag_catalog.agtype FROM added
      )
      INSERT INTO latent_age_vertices (space_id, artifact_id, gid, digest, sources, covers_pending)
      SELECT $1, artifact_id, gid::text::bigint, digest, source_seqs, true FROM added
    $q$, g, format('%I.%I', g, 'LatentArtifact_id_seq')) USING p_space, added_ids;
    -- Newly cited events get a vertex.
    EXECUTE format($q$
      WITH cited AS (
        SELECT (r->>'seq')::bigint AS seq, min(r->>'hash') AS hash
        FROM latent_artifacts a CROSS JOIN jsonb_array_elements(a.source_event_refs) r
        WHERE a.space_id = $1 AND a.artifact_id = ANY ($2)
        GROUP BY 1
      ), added AS (
        SELECT c.seq, c.hash, ag_catalog._graphid(ag_catalog._label_id(%1$L, 'SourceEvent')::int, nextval(%2$L::regclass)) AS gid
        FROM cited c WHERE NOT EXISTS (SELECT FROM latent_age_events e WHERE e.space_id = $1 AND e.seq = c.seq)
      ), vertices AS (
        INSERT INTO %1$I."SourceEvent" (id, properties)
        SELECT gid, jsonb_build_object('space', $1, 'seq', seq, 'hash', hash)::text::ag_catalog.agtype FROM added
      )
      INSERT INTO latent_age_events (space_id, seq, gid) SELECT $1, seq, gid::text::bigint FROM added
    $q$, g, format('%I.%I', g, 'SourceEvent_id_seq')) USING p_space, added_ids;
    -- Many new rows (the whole mirror, the first time): the planner must see them, or it joins
    -- them as if they were a handful (27 s for 5,000 artifacts citing 100,000 events).
    IF cardinality(added_ids) > 500 THEN
      ANALYZE latent_age_vertices, latent_age_events;
    END IF;
    -- DERIVED_FROM: a new vertex to each event it cites.
    EXECUTE format($q$
      INSERT INTO %1$I."DERIVED_FROM" (id, start_id, end_id, properties)
      SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'DERIVED_FROM')::int, nextval(%2$L::regclass)),
             v.gid::text::ag_catalog.graphid, e.gid::text::ag_catalog.graphid, '{}'::ag_catalog.agtype
      FROM latent_age_vertices v CROSS JOIN unnest(v.sources) s (seq)
      JOIN latent_age_events e ON e.space_id = $1 AND e.seq = s.seq
      WHERE v.space_id = $1 AND v.artifact_id = ANY ($2)
    $q$, g, format('%I.%I', g, 'DERIVED_FROM_id_seq')) USING p_space, added_ids;
  END IF;

  -- COVERS: made for the vertices still waiting on an entity's vertex (every new one).
  SELECT coalesce(array_agg(v.gid), '{}') INTO pending_gids
  FROM latent_age_vertices v WHERE v.space_id = p_space AND v.covers_pending;
  IF cardinality(pending_gids) > 0 THEN
    EXECUTE format('DELETE FROM %I."COVERS" e WHERE e.start_id = ANY ($1::text[]::ag_catalog.graphid[])', g) USING pending_gids;
    EXECUTE format($q$
      INSERT INTO %1$I."COVERS" (id, start_id, end_id, properties)
      SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'COVERS')::int, nextval(%2$L::regclass)),
             v.gid::text::ag_catalog.graphid, x.age_node::text::ag_catalog.graphid, '{}'::ag_catalog.agtype
      FROM latent_age_vertices v
      JOIN latent_artifacts a ON a.space_id = v.space_id AND a.artifact_id = v.artifact_id
      CROSS JOIN unnest(a.entity_refs) r (entity_id)
      JOIN entities x ON x.space_id = $1 AND x.entity_id = r.entity_id AND x.age_node IS NOT NULL
      WHERE v.space_id = $1 AND v.covers_pending
    $q$, g, format('%I.%I', g, 'COVERS_id_seq')) USING p_space;
    UPDATE latent_age_vertices v SET covers_pending = EXISTS (
      SELECT FROM unnest(a.entity_refs) r (entity_id)
      LEFT JOIN entities x ON x.space_id = p_space AND x.entity_id = r.entity_id
      WHERE x.age_node IS NULL)
    FROM latent_artifacts a
    WHERE v.space_id = p_space AND v.covers_pending AND a.space_id = v.space_id AND a.artifact_id = v.artifact_id;
  END IF;

  -- SUPERSEDES and CONTRADICTS (few): wanted against there, both ways.
  IF cardinality(gone_gids) > 0 OR cardinality(added_ids) > 0 THEN
    FOREACH l IN ARRAY ARRAY['SUPERSEDES', 'CONTRADICTS'] LOOP
      EXECUTE format($q$
        WITH wanted AS (
          SELECT DISTINCT n.gid::text::ag_catalog.graphid AS start_id, o.gid::text::ag_catalog.graphid AS end_id
          FROM latent_artifacts a
          CROSS JOIN unnest(CASE WHEN %2$L = 'SUPERSEDES' THEN ARRAY[a.supersedes] ELSE a.contradicts END) t (artifact_id)
          JOIN latent_age_vertices n ON n.space_id = $1 AND n.artifact_id = a.artifact_id
          JOIN latent_age_vertices o ON o.space_id = $1 AND o.artifact_id = t.artifact_id
          WHERE a.space_id = $1 AND (a.supersedes IS NOT NULL OR cardinality(a.contradicts) > 0)
        ), dropped AS (
          DELETE FROM %1$I.%2$I e
          WHERE NOT EXISTS (SELECT FROM wanted w WHERE w.start_id = e.start_id AND w.end_id = e.end_id)
        )
        INSERT INTO %1$I.%2$I (id, start_id, end_id, properties)
        SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, %2$L)::int, nextval(%3$L::regclass)), w.start_id, w.end_id, '{}'::ag_catalog.agtype
        FROM wanted w
        WHERE NOT EXISTS (SELECT FROM %1$I.%2$I e WHERE e.start_id = w.start_id AND e.end_id = w.end_id)
      $q$, g, l, format('%I.%I', g, l || '_id_seq')) USING p_space;
    END LOOP;
  END IF;
END $$;

-- The mirror check as 000019 left it.
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
      SELECT concat_ws('|', 'E', id::text, ag_catalog.agtype_out(properties)::text::jsonb::text) AS line FROM %1$I."Entity"
      UNION ALL
      SELECT concat_ws('|', 'F', id::text, start_id::text, end_id::text, ag_catalog.agtype_out(properties)::text::jsonb::text) FROM %1$I."FACT"
      UNION ALL
      SELECT concat_ws('|', 'V', id::text, ag_catalog.agtype_out(properties)::text::jsonb::text) FROM %1$I."Value"
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
     ARRAY['LatentArtifact', 'SourceEvent', 'DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS'])
  INTO actual, actual_lines;
END $$;

-- The five relation labels stay (AGE drops labels only with their graph) but lose their edges.
DO $$
DECLARE
  g text;
  l text;
BEGIN
  FOR g IN SELECT graph_name FROM age_graphs LOOP
    FOREACH l IN ARRAY ARRAY['OCCURS_IN', 'FOLLOWS', 'EXPLAINS', 'SHARES_CAUSE', 'WARNS'] LOOP
      IF to_regclass(format('%I.%I', g, l)) IS NOT NULL THEN
        EXECUTE format('DELETE FROM %I.%I', g, l);
      END IF;
    END LOOP;
  END LOOP;
END $$;
DELETE FROM latent_age_spaces;
DROP FUNCTION zaxy_age_latent_relations(text, text[]);
DROP FUNCTION zaxy_latent_relations_derive(text, text[]);
DROP INDEX latent_artifacts_contradicting;
DROP INDEX latent_artifacts_supersedes;
DROP TABLE latent_relations;
