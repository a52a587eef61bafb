-- The relations between latent artifacts (docs/latent.md, "Relations between artifacts"). Four
-- kinds were already there, as columns or sources of the artifacts: DERIVED_FROM (an artifact's
-- cited events, latent_sources), COVERS (its entities, entity_refs), SUPERSEDES and CONTRADICTS.
-- Five more are derived here, each a function of the contents of the two artifacts it joins (so
-- of the log), and kept in latent_relations:
--   occurs_in     causal link -> an episode citing its cause or its effect
--   follows       episode -> the episode of the same session's previous segment
--   explains      causal link -> the failure pattern of its tool citing its effect
--   shares_cause  causal link -> another causal link with the same cause event (both ways)
--   warns         causal link -> a procedure whose steps run the tool it saw fail
-- Since an artifact's content never changes under its id, a relation appears when the later of
-- its two artifacts is inserted and goes (the foreign keys) when either is deleted: the build
-- derives the relations of the artifacts it inserts, and incremental builds and a rebuild reach
-- the same rows (the projection checksum covers them). Stale artifacts keep their relations;
-- readers filter.

CREATE TABLE latent_relations (
  space_id text NOT NULL,
  kind     text NOT NULL CONSTRAINT latent_relations_kind
             CHECK (kind IN ('occurs_in', 'follows', 'explains', 'shares_cause', 'warns')),
  from_id  text NOT NULL,
  to_id    text NOT NULL,
  PRIMARY KEY (space_id, from_id, kind, to_id),
  FOREIGN KEY (space_id, from_id) REFERENCES latent_artifacts (space_id, artifact_id) ON DELETE CASCADE,
  FOREIGN KEY (space_id, to_id) REFERENCES latent_artifacts (space_id, artifact_id) ON DELETE CASCADE
);
CREATE INDEX latent_relations_to ON latent_relations (space_id, to_id);

-- The relational reads of SUPERSEDES and CONTRADICTS from their far end (few rows each).
CREATE INDEX latent_artifacts_supersedes ON latent_artifacts (space_id, supersedes) WHERE supersedes IS NOT NULL;
CREATE INDEX latent_artifacts_contradicting ON latent_artifacts (space_id) WHERE cardinality(contradicts) > 0;

COMMENT ON TABLE latent_relations IS 'Latent layer: the derived relations between artifacts (occurs_in, follows, explains, shares_cause, warns).';

-- Inserts the relations of the space's artifacts p_ids with every artifact of the space, in
-- both directions (the ids are the artifacts a build inserted). Each branch starts from the
-- given artifacts and reaches the others through an index: latent_sources by seq, the slot
-- index, the type index. PL/pgSQL, so a connection plans the statement once.
CREATE FUNCTION zaxy_latent_relations_derive(p_space text, p_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  WITH given AS (
    SELECT a.* FROM latent_artifacts a WHERE a.space_id = p_space AND a.artifact_id = ANY (p_ids)
  ), links AS (
    SELECT g.artifact_id, (g.payload->>'cause_seq')::bigint AS cause, (g.payload->>'effect_seq')::bigint AS effect,
           g.payload->>'tool' AS tool
    FROM given g WHERE g.artifact_type = 'causal'
  ), episodes AS (
    SELECT g.artifact_id, g.source_seqs, m.parts[1] AS prefix, m.parts[2]::bigint AS segment
    FROM given g CROSS JOIN LATERAL regexp_match(g.slot, '^(.*#)([0-9]+)$') AS m (parts)
    WHERE g.artifact_type = 'episode'
  ), rel AS (
    -- occurs_in, from a given link
    SELECT 'occurs_in' AS kind, l.artifact_id AS from_id, e.artifact_id AS to_id
    FROM links l
    CROSS JOIN LATERAL (VALUES (l.cause), (l.effect)) c (seq)
    JOIN latent_sources s ON s.space_id = p_space AND s.seq = c.seq
    JOIN latent_artifacts e ON e.space_id = p_space AND e.artifact_id = s.artifact_id AND e.artifact_type = 'episode'
    UNION
    -- occurs_in, to a given episode
    SELECT 'occurs_in', l.artifact_id, e.artifact_id
    FROM episodes e
    CROSS JOIN unnest(e.source_seqs) c (seq)
    JOIN latent_sources s ON s.space_id = p_space AND s.seq = c.seq
    JOIN latent_artifacts l ON l.space_id = p_space AND l.artifact_id = s.artifact_id AND l.artifact_type = 'causal'
    WHERE c.seq IN ((l.payload->>'cause_seq')::bigint, (l.payload->>'effect_seq')::bigint)
    UNION
    -- follows, from a given episode to its session's previous segment
    SELECT 'follows', e.artifact_id, p.artifact_id
    FROM episodes e
    JOIN latent_artifacts p ON p.space_id = p_space AND p.slot = e.prefix || (e.segment - 1)::text
     AND p.artifact_type = 'episode'
    UNION
    -- follows, to a given episode from its session's next segment
    SELECT 'follows', n.artifact_id, e.artifact_id
    FROM episodes e
    JOIN latent_artifacts n ON n.space_id = p_space AND n.slot = e.prefix || (e.segment + 1)::text
     AND n.artifact_type = 'episode'
    UNION
    -- explains, from a given link
    SELECT 'explains', l.artifact_id, f.artifact_id
    FROM links l
    JOIN latent_sources s ON s.space_id = p_space AND s.seq = l.effect
    JOIN latent_artifacts f ON f.space_id = p_space AND f.artifact_id = s.artifact_id AND f.artifact_type = 'failure'
     AND f.payload->>'tool' = l.tool
    UNION
    -- explains, to a given failure pattern
    SELECT 'explains', l.artifact_id, g.artifact_id
    FROM given g
    CROSS JOIN unnest(g.source_seqs) c (seq)
    JOIN latent_sources s ON s.space_id = p_space AND s.seq = c.seq
    JOIN latent_artifacts l ON l.space_id = p_space AND l.artifact_id = s.artifact_id AND l.artifact_type = 'causal'
    WHERE g.artifact_type = 'failure' AND (l.payload->>'effect_seq')::bigint = c.seq
      AND l.payload->>'tool' = g.payload->>'tool'
    UNION
    -- shares_cause, both ways
    SELECT 'shares_cause', x.from_id, x.to_id
    FROM links l
    JOIN latent_sources s ON s.space_id = p_space AND s.seq = l.cause
    JOIN latent_artifacts o ON o.space_id = p_space AND o.artifact_id = s.artifact_id AND o.artifact_type = 'causal'
     AND o.artifact_id <> l.artifact_id AND (o.payload->>'cause_seq')::bigint = l.cause
    CROSS JOIN LATERAL (VALUES (l.artifact_id, o.artifact_id), (o.artifact_id, l.artifact_id)) x (from_id, to_id)
    UNION
    -- warns, from a given link
    SELECT 'warns', l.artifact_id, p.artifact_id
    FROM links l
    JOIN latent_artifacts p ON p.space_id = p_space AND p.artifact_type = 'procedure'
     AND p.payload->'steps' ? l.tool
    UNION
    -- warns, to a given procedure
    SELECT 'warns', l.artifact_id, g.artifact_id
    FROM given g
    JOIN latent_artifacts l ON l.space_id = p_space AND l.artifact_type = 'causal'
     AND g.payload->'steps' ? (l.payload->>'tool')
    WHERE g.artifact_type = 'procedure'
  )
  INSERT INTO latent_relations (space_id, kind, from_id, to_id)
  SELECT p_space, r.kind, r.from_id, r.to_id FROM rel r
  ON CONFLICT DO NOTHING;
END $$;

SELECT zaxy_latent_relations_derive(a.space_id, array_agg(a.artifact_id))
FROM latent_artifacts a GROUP BY a.space_id;

-- Mirrors a space's artifacts into its AGE graph: LatentArtifact vertices, SourceEvent vertices
-- for the cited events, and DERIVED_FROM (artifact -> event), COVERS (artifact -> Entity),
-- SUPERSEDES and CONTRADICTS (artifact -> artifact) edges, and since 000061 the five relation
-- kinds of latent_relations (OCCURS_IN, FOLLOWS, EXPLAINS, SHARES_CAUSE, WARNS), by difference
-- (TestBuild_TheMirrorKeptByDifferenceEqualsARewrite):
--   * a vertex whose artifact is gone or shows other properties (staled, reviewed, valid_to)
--     goes with its edges; an artifact without a vertex gets one, with its DERIVED_FROM and
--     COVERS edges (an artifact's sources and entities are part of its content address);
--   * a SourceEvent vertex goes when no artifact cites its seq any more (latent_sources), and a
--     newly cited seq gets one;
--   * COVERS of a vertex whose entity had no vertex yet are made again until it has;
--   * SUPERSEDES and CONTRADICTS (few) are compared whole, wanted against there;
--   * a relation of latent_relations is an edge between two vertices: edges from or to a vertex
--     that goes go with it, and the relations of every vertex made now are made (a relation
--     only appears with a new artifact, and goes with one, so nothing else can differ).
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
  rel_labels text[] := ARRAY['OCCURS_IN', 'FOLLOWS', 'EXPLAINS', 'SHARES_CAUSE', 'WARNS'];
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
  FOREACH l IN ARRAY rel_labels LOOP
    IF NOT EXISTS (SELECT FROM ag_catalog.ag_label x JOIN ag_catalog.ag_graph y ON y.graphid = x.graph
                   WHERE y.name = g::name AND x.name = l::name) THEN
      PERFORM ag_catalog.create_elabel(g::name, l::name);
      EXECUTE format('CREATE INDEX ON %I.%I (start_id)', g, l);
      EXECUTE format('CREATE INDEX ON %I.%I (end_id)', g, l);
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
    -- The artifacts' id property, as Cypher's a.id = $param compares it (000061).
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I.%I (ag_catalog.agtype_access_operator(VARIADIC ARRAY[properties, %L::ag_catalog.agtype]))',
                   'LatentArtifact_prop_id', g, 'LatentArtifact', '"id"');
    EXECUTE format('DELETE FROM %I."DERIVED_FROM"; DELETE FROM %1$I."COVERS"; DELETE FROM %1$I."SUPERSEDES";
                    DELETE FROM %1$I."CONTRADICTS"; DELETE FROM %1$I."OCCURS_IN"; DELETE FROM %1$I."FOLLOWS";
                    DELETE FROM %1$I."EXPLAINS"; DELETE FROM %1$I."SHARES_CAUSE"; DELETE FROM %1$I."WARNS";
                    DELETE FROM %1$I."LatentArtifact"; DELETE FROM %1$I."SourceEvent"', g);
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
    -- The relations' edges from or to them, in one statement.
    EXECUTE format($q$
      WITH o AS (DELETE FROM %1$I."OCCURS_IN" e WHERE e.start_id = ANY ($1) OR e.end_id = ANY ($1)),
           f AS (DELETE FROM %1$I."FOLLOWS" e WHERE e.start_id = ANY ($1) OR e.end_id = ANY ($1)),
           x AS (DELETE FROM %1$I."EXPLAINS" e WHERE e.start_id = ANY ($1) OR e.end_id = ANY ($1)),
           c AS (DELETE FROM %1$I."SHARES_CAUSE" e WHERE e.start_id = ANY ($1) OR e.end_id = ANY ($1))
      DELETE FROM %1$I."WARNS" e WHERE e.start_id = ANY ($1) OR e.end_id = ANY ($1)
    $q$, g) USING gone_gids::text[]::ag_catalog.graphid[];
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

  -- The relations of the new vertices (either end), each once, label by label for the kinds
  -- they have.
  IF cardinality(added_ids) > 0 THEN
    FOR l IN SELECT DISTINCT upper(r.kind) FROM latent_relations r
             WHERE r.space_id = p_space AND (r.from_id = ANY (added_ids) OR r.to_id = ANY (added_ids)) LOOP
      EXECUTE format($q$
        INSERT INTO %1$I.%2$I (id, start_id, end_id, properties)
        SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, %2$L)::int, nextval(%3$L::regclass)),
               w.start_id, w.end_id, '{}'::ag_catalog.agtype
        FROM (
          SELECT DISTINCT f.gid::text::ag_catalog.graphid AS start_id, t.gid::text::ag_catalog.graphid AS end_id
          FROM latent_relations r
          JOIN latent_age_vertices f ON f.space_id = $1 AND f.artifact_id = r.from_id
          JOIN latent_age_vertices t ON t.space_id = $1 AND t.artifact_id = r.to_id
          WHERE r.space_id = $1 AND r.kind = lower(%2$L) AND (r.from_id = ANY ($2) OR r.to_id = ANY ($2))
        ) w
        WHERE NOT EXISTS (SELECT FROM %1$I.%2$I e WHERE e.start_id = w.start_id AND e.end_id = w.end_id)
      $q$, g, l, format('%I.%I', g, l || '_id_seq')) USING p_space, added_ids;
    END LOOP;
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

-- Reads, through the space's AGE graph, the relations of every kind with one of the artifacts
-- p_ids at either end. The Cypher text is made of constants and numbered parameter names only
-- ($i1 ... $in, the ids bound to them in an agtype map passed as $1), so nothing given is ever
-- formatted into a statement. The ids are compared one equality each (a.id = $i1 OR ...): AGE
-- folds each into a constant that the expression index on LatentArtifact's id property can
-- serve, where `a.id IN $ids` is a filter over every vertex (400 ms against 0.5 ms at 5,000
-- artifacts citing 50,000 events). Outgoing edges to artifacts (any label), events
-- (DERIVED_FROM) and entities (COVERS), and incoming edges from artifacts label by label (the
-- labels whose edges can end at an artifact, through their end_id indexes), each pattern with
-- its direction. Raises ZX031 when the mirror cannot answer for the space (no graph, never
-- synced, its label table made again since, or artifacts changed since the last sync): the
-- caller reads the relational tables instead.
CREATE FUNCTION zaxy_age_latent_relations(p_space text, p_ids text[])
RETURNS TABLE (kind text, from_id text, to_id text, to_seq bigint, to_entity text)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text;
  n int := coalesce(cardinality(p_ids), 0);
  from_ids text;
  to_ids text;
  params jsonb;
  q text;
  l text;
BEGIN
  SELECT a.graph_name INTO g FROM age_graphs a WHERE a.space_id = p_space;
  IF g IS NULL OR NOT EXISTS (
       SELECT FROM latent_age_spaces s
       WHERE s.space_id = p_space AND s.label = to_regclass(format('%I.%I', g, 'LatentArtifact'))::oid)
     OR to_regclass(format('%I.%I', g, 'WARNS')) IS NULL THEN
    RAISE EXCEPTION 'space % has no latent mirror', p_space USING ERRCODE = 'ZX031';
  END IF;
  IF EXISTS (SELECT FROM latent_age_dirty d WHERE d.space_id = p_space) THEN
    RAISE EXCEPTION 'the latent mirror of space % is behind its artifacts', p_space USING ERRCODE = 'ZX031';
  END IF;
  IF n = 0 THEN
    RETURN;
  END IF;
  SELECT string_agg(format('a.id = $i%s', i), ' OR '), string_agg(format('b.id = $i%s', i), ' OR '),
         jsonb_object_agg('i' || i, p_ids[i])
  INTO from_ids, to_ids, params
  FROM generate_series(1, n) i;
  q := format('MATCH (a:LatentArtifact)-[r]->(b:LatentArtifact) WHERE %s RETURN type(r) AS k, a.id AS f, b.id AS t, null AS s, null AS e', from_ids)
    || format(' UNION ALL MATCH (a:LatentArtifact)-[r:DERIVED_FROM]->(b:SourceEvent) WHERE %s RETURN type(r) AS k, a.id AS f, null AS t, b.seq AS s, null AS e', from_ids)
    || format(' UNION ALL MATCH (a:LatentArtifact)-[r:COVERS]->(b:Entity) WHERE %s RETURN type(r) AS k, a.id AS f, null AS t, null AS s, b.id AS e', from_ids);
  FOREACH l IN ARRAY ARRAY['SUPERSEDES', 'CONTRADICTS', 'OCCURS_IN', 'FOLLOWS', 'EXPLAINS', 'SHARES_CAUSE', 'WARNS'] LOOP
    q := q || format(' UNION ALL MATCH (a:LatentArtifact)-[r:%s]->(b:LatentArtifact) WHERE %s RETURN type(r) AS k, a.id AS f, b.id AS t, null AS s, null AS e', l, to_ids);
  END LOOP;
  -- Calling into the library loads it (and its parser hook) before cypher() is parsed below.
  PERFORM ag_catalog.agtype_in('null');
  RETURN QUERY EXECUTE format($s$
    SELECT DISTINCT lower(x.k::text), x.f::text, x.t::text, x.s::text::bigint, x.e::text
    FROM ag_catalog.cypher(%L, $q$%s$q$, $1)
      AS x (k ag_catalog.agtype, f ag_catalog.agtype, t ag_catalog.agtype, s ag_catalog.agtype, e ag_catalog.agtype)
  $s$, g, q) USING params::text::ag_catalog.agtype;
END $$;

-- The AGE mirror check (zaxy doctor) leaves the latent labels out, the five new edge labels
-- too. (CREATE OR REPLACE keeps the grants.)
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
     ARRAY['LatentArtifact', 'SourceEvent', 'DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS',
           'OCCURS_IN', 'FOLLOWS', 'EXPLAINS', 'SHARES_CAUSE', 'WARNS'])
  INTO actual, actual_lines;
END $$;

-- Every space's latent mirror is written whole again at its next build, with the new edges.
DELETE FROM latent_age_spaces;

REVOKE ALL ON latent_relations FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION zaxy_age_latent_relations(text, text[]) FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, DELETE ON latent_relations TO zaxy_app;
    GRANT EXECUTE ON FUNCTION zaxy_age_latent_relations(text, text[]) TO zaxy_app;
  END IF;
END $$;
