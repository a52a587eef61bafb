-- The latent AGE mirror, kept by difference (issue 16, session 16). zaxy_age_latent_sync
-- rewrote a space's whole mirror at every latent build: 23 ms of a 47 ms build after one more
-- event in a 2,000-event session, 1.0-1.3 s at 5,000 episodes citing 100,000 events. Reading
-- the vertices back to diff them (agtype_out) cost more than the rewrite, so the mirror's ids are
-- kept here, relationally, and the function writes only what changed. Bookkeeping of the
-- function alone (it is SECURITY DEFINER; the app never reads these tables).

-- One row per LatentArtifact vertex: its artifact, its graphid, a digest of what it shows (its
-- properties), the events it cites, and whether an entity it covers had no vertex yet.
CREATE TABLE latent_age_vertices (
  space_id       text NOT NULL,
  artifact_id    text NOT NULL,
  gid            bigint NOT NULL,
  digest         text NOT NULL,
  sources        bigint[] NOT NULL,
  covers_pending boolean NOT NULL,
  PRIMARY KEY (space_id, artifact_id)
);

-- One row per SourceEvent vertex: the cited seq and its graphid.
CREATE TABLE latent_age_events (
  space_id text NOT NULL,
  seq      bigint NOT NULL,
  gid      bigint NOT NULL,
  PRIMARY KEY (space_id, seq)
);

-- The LatentArtifact label table the bookkeeping describes, per space: another one (the graph
-- was dropped with zaxy_age_drop and made again) means the mirror is rewritten whole.
CREATE TABLE latent_age_spaces (
  space_id text PRIMARY KEY,
  label    oid NOT NULL
);

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
-- When the graph is not the one the bookkeeping describes (it was dropped with zaxy_age_drop
-- and made again), the space's latent mirror is rewritten whole.
-- Its working tables are analyzed as made: unanalyzed, the planner took a handful of rows for
-- thousands and scanned the label tables. Written through the label tables, as zaxy_age_sync;
-- no user text is ever formatted into a statement.
CREATE OR REPLACE FUNCTION zaxy_age_latent_sync(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text := zaxy_age_graph(p_space);
  l text;
  g_label oid;
  created boolean := false;
  n_gone bigint;
  n_added bigint;
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
  END IF;

  -- Each artifact and what of it can change under its id (its content is its address): the
  -- vertex shows the lifecycle as it was when the digest was taken.
  CREATE TEMP TABLE zaxy_latent_want ON COMMIT DROP AS
  SELECT a.artifact_id, a.supersedes, a.contradicts,
         concat_ws('|', a.confidence, a.review_status, a.authority_status, coalesce(a.valid_to::text, '-'),
                   coalesce(a.stale_at::text, '-'), coalesce(a.stale_reason, '-')) AS digest
  FROM latent_artifacts a
  WHERE a.space_id = p_space;
  ANALYZE zaxy_latent_want;

  -- Vertices whose artifact is gone or changed go, with the edges leaving them and the
  -- SUPERSEDES and CONTRADICTS edges reaching them.
  CREATE TEMP TABLE zaxy_latent_gone ON COMMIT DROP AS
  SELECT v.artifact_id, v.gid::text::ag_catalog.graphid AS gid, v.sources
  FROM latent_age_vertices v
  WHERE v.space_id = p_space
    AND NOT EXISTS (SELECT FROM zaxy_latent_want w WHERE w.artifact_id = v.artifact_id AND w.digest = v.digest);
  GET DIAGNOSTICS n_gone = ROW_COUNT;
  SELECT count(*) INTO n_added FROM zaxy_latent_want w
  WHERE NOT EXISTS (SELECT FROM latent_age_vertices v WHERE v.space_id = p_space AND v.artifact_id = w.artifact_id AND v.digest = w.digest);
  IF n_gone = 0 AND n_added = 0
     AND NOT EXISTS (SELECT FROM latent_age_vertices v WHERE v.space_id = p_space AND v.covers_pending) THEN
    DROP TABLE zaxy_latent_want, zaxy_latent_gone;
    RETURN; -- nothing changed
  END IF;
  ANALYZE zaxy_latent_gone;
  FOREACH l IN ARRAY ARRAY['DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS'] LOOP
    EXECUTE format('DELETE FROM %I.%I e USING zaxy_latent_gone x WHERE e.start_id = x.gid', g, l);
  END LOOP;
  FOREACH l IN ARRAY ARRAY['SUPERSEDES', 'CONTRADICTS'] LOOP
    EXECUTE format('DELETE FROM %I.%I e USING zaxy_latent_gone x WHERE e.end_id = x.gid', g, l);
  END LOOP;
  EXECUTE format('DELETE FROM %I."LatentArtifact" v USING zaxy_latent_gone x WHERE v.id = x.gid', g);
  DELETE FROM latent_age_vertices v USING zaxy_latent_gone x WHERE v.space_id = p_space AND v.artifact_id = x.artifact_id;

  -- Source events no artifact cites any more go (only a gone vertex's can be one).
  CREATE TEMP TABLE zaxy_latent_uncited ON COMMIT DROP AS
  SELECT DISTINCT e.seq, e.gid::text::ag_catalog.graphid AS gid
  FROM zaxy_latent_gone x CROSS JOIN unnest(x.sources) s (seq)
  JOIN latent_age_events e ON e.space_id = p_space AND e.seq = s.seq
  WHERE NOT EXISTS (SELECT FROM latent_sources c WHERE c.space_id = p_space AND c.seq = s.seq);
  ANALYZE zaxy_latent_uncited;
  EXECUTE format('DELETE FROM %I."SourceEvent" v USING zaxy_latent_uncited u WHERE v.id = u.gid', g);
  DELETE FROM latent_age_events e USING zaxy_latent_uncited u WHERE e.space_id = p_space AND e.seq = u.seq;

  -- Artifacts without a vertex get one.
  EXECUTE format($q$
    CREATE TEMP TABLE zaxy_latent_added ON COMMIT DROP AS
    SELECT w.artifact_id, w.digest, a.source_event_refs, a.source_seqs,
           jsonb_build_object('space', a.space_id, 'id', a.artifact_id, 'type', a.artifact_type,
             'summary', a.summary, 'method', a.method, 'confidence', a.confidence, 'review_status', a.review_status,
             'authority_status', a.authority_status, 'valid_from', a.valid_from, 'valid_to', a.valid_to,
             'stale_at', a.stale_at, 'stale_reason', a.stale_reason, 'purpose_profile', a.purpose_profile,
             'reasoning_phase', a.reasoning_phase) AS props,
           ag_catalog._graphid(ag_catalog._label_id(%1$L, 'LatentArtifact')::int, nextval(%2$L::regclass)) AS gid
    FROM zaxy_latent_want w JOIN latent_artifacts a ON a.space_id = $1 AND a.artifact_id = w.artifact_id
    WHERE NOT EXISTS (SELECT FROM latent_age_vertices v WHERE v.space_id = $1 AND v.artifact_id = w.artifact_id)
  $q$, g, format('%I.%I', g, 'LatentArtifact_id_seq')) USING p_space;
  ANALYZE zaxy_latent_added;
  EXECUTE format('INSERT INTO %I."LatentArtifact" (id, properties) SELECT a.gid, a.props::text::ag_catalog.agtype FROM zaxy_latent_added a', g);
  INSERT INTO latent_age_vertices (space_id, artifact_id, gid, digest, sources, covers_pending)
  SELECT p_space, a.artifact_id, a.gid::text::bigint, a.digest, a.source_seqs, true FROM zaxy_latent_added a;

  -- Newly cited events get a vertex.
  EXECUTE format($q$
    CREATE TEMP TABLE zaxy_latent_events ON COMMIT DROP AS
    SELECT s.seq, min(s.hash) AS hash,
           ag_catalog._graphid(ag_catalog._label_id(%1$L, 'SourceEvent')::int, nextval(%2$L::regclass)) AS gid
    FROM (SELECT (r->>'seq')::bigint AS seq, r->>'hash' AS hash
          FROM zaxy_latent_added a CROSS JOIN jsonb_array_elements(a.source_event_refs) r) s
    WHERE NOT EXISTS (SELECT FROM latent_age_events e WHERE e.space_id = $1 AND e.seq = s.seq)
    GROUP BY s.seq
  $q$, g, format('%I.%I', g, 'SourceEvent_id_seq')) USING p_space;
  ANALYZE zaxy_latent_events;
  EXECUTE format($q$
    INSERT INTO %1$I."SourceEvent" (id, properties)
    SELECT gid, jsonb_build_object('space', $1, 'seq', seq, 'hash', hash)::text::ag_catalog.agtype FROM zaxy_latent_events
  $q$, g) USING p_space;
  INSERT INTO latent_age_events (space_id, seq, gid) SELECT p_space, e.seq, e.gid::text::bigint FROM zaxy_latent_events e;

  -- DERIVED_FROM: a new vertex to each event it cites.
  EXECUTE format($q$
    INSERT INTO %1$I."DERIVED_FROM" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'DERIVED_FROM')::int, nextval(%2$L::regclass)),
           a.gid, e.gid::text::ag_catalog.graphid, '{}'::ag_catalog.agtype
    FROM zaxy_latent_added a CROSS JOIN unnest(a.source_seqs) s (seq)
    JOIN latent_age_events e ON e.space_id = $1 AND e.seq = s.seq
  $q$, g, format('%I.%I', g, 'DERIVED_FROM_id_seq')) USING p_space;

  -- COVERS: made for the vertices still waiting on an entity's vertex (every new one).
  CREATE TEMP TABLE zaxy_latent_covering ON COMMIT DROP AS
  SELECT v.artifact_id, v.gid::text::ag_catalog.graphid AS gid, a.entity_refs
  FROM latent_age_vertices v JOIN latent_artifacts a ON a.space_id = v.space_id AND a.artifact_id = v.artifact_id
  WHERE v.space_id = p_space AND v.covers_pending;
  ANALYZE zaxy_latent_covering;
  EXECUTE format('DELETE FROM %I."COVERS" e USING zaxy_latent_covering c WHERE e.start_id = c.gid', g);
  EXECUTE format($q$
    INSERT INTO %1$I."COVERS" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'COVERS')::int, nextval(%2$L::regclass)),
           c.gid, x.age_node::text::ag_catalog.graphid, '{}'::ag_catalog.agtype
    FROM zaxy_latent_covering c CROSS JOIN unnest(c.entity_refs) r (entity_id)
    JOIN entities x ON x.space_id = $1 AND x.entity_id = r.entity_id AND x.age_node IS NOT NULL
  $q$, g, format('%I.%I', g, 'COVERS_id_seq')) USING p_space;
  UPDATE latent_age_vertices v SET covers_pending = EXISTS (
    SELECT FROM unnest(c.entity_refs) r (entity_id)
    LEFT JOIN entities x ON x.space_id = p_space AND x.entity_id = r.entity_id
    WHERE x.age_node IS NULL)
  FROM zaxy_latent_covering c WHERE v.space_id = p_space AND v.artifact_id = c.artifact_id;

  -- SUPERSEDES and CONTRADICTS: wanted against there, both ways.
  CREATE TEMP TABLE zaxy_latent_links ON COMMIT DROP AS
  SELECT 'SUPERSEDES'::text AS label, n.gid::text::ag_catalog.graphid AS start_id, o.gid::text::ag_catalog.graphid AS end_id
  FROM zaxy_latent_want w
  JOIN latent_age_vertices n ON n.space_id = p_space AND n.artifact_id = w.artifact_id
  JOIN latent_age_vertices o ON o.space_id = p_space AND o.artifact_id = w.supersedes
  UNION ALL
  SELECT 'CONTRADICTS', n.gid::text::ag_catalog.graphid, o.gid::text::ag_catalog.graphid
  FROM zaxy_latent_want w CROSS JOIN unnest(w.contradicts) c (artifact_id)
  JOIN latent_age_vertices n ON n.space_id = p_space AND n.artifact_id = w.artifact_id
  JOIN latent_age_vertices o ON o.space_id = p_space AND o.artifact_id = c.artifact_id;
  ANALYZE zaxy_latent_links;
  FOREACH l IN ARRAY ARRAY['SUPERSEDES', 'CONTRADICTS'] LOOP
    EXECUTE format($q$
      DELETE FROM %1$I.%2$I e
      WHERE NOT EXISTS (SELECT FROM zaxy_latent_links k WHERE k.label = %2$L AND k.start_id = e.start_id AND k.end_id = e.end_id)
    $q$, g, l);
    EXECUTE format($q$
      INSERT INTO %1$I.%2$I (id, start_id, end_id, properties)
      SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, %2$L)::int, nextval(%3$L::regclass)), k.start_id, k.end_id, '{}'::ag_catalog.agtype
      FROM zaxy_latent_links k
      WHERE k.label = %2$L AND NOT EXISTS (SELECT FROM %1$I.%2$I e WHERE e.start_id = k.start_id AND e.end_id = k.end_id)
    $q$, g, l, format('%I.%I', g, l || '_id_seq'));
  END LOOP;
  DROP TABLE zaxy_latent_want, zaxy_latent_gone, zaxy_latent_uncited, zaxy_latent_added, zaxy_latent_events,
    zaxy_latent_covering, zaxy_latent_links;
END $$;
