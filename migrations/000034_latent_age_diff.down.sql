-- Restores the full rewrite of 000019: every build replaced the space's whole latent mirror.
CREATE OR REPLACE FUNCTION zaxy_age_latent_sync(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog AS $$
DECLARE
  g text := zaxy_age_graph(p_space);
  l text;
BEGIN
  FOREACH l IN ARRAY ARRAY['LatentArtifact', 'SourceEvent'] LOOP
    IF NOT EXISTS (SELECT FROM ag_catalog.ag_label x JOIN ag_catalog.ag_graph y ON y.graphid = x.graph
                   WHERE y.name = g::name AND x.name = l::name) THEN
      PERFORM ag_catalog.create_vlabel(g::name, l::name);
      EXECUTE format('CREATE INDEX ON %I.%I (id)', g, l);
    END IF;
  END LOOP;
  FOREACH l IN ARRAY ARRAY['DERIVED_FROM', 'COVERS', 'SUPERSEDES', 'CONTRADICTS'] LOOP
    IF NOT EXISTS (SELECT FROM ag_catalog.ag_label x JOIN ag_catalog.ag_graph y ON y.graphid = x.graph
                   WHERE y.name = g::name AND x.name = l::name) THEN
      PERFORM ag_catalog.create_elabel(g::name, l::name);
      EXECUTE format('CREATE INDEX ON %I.%I (start_id)', g, l);
    END IF;
  END LOOP;
  -- New label tables are readable by the app and by the graph's Cypher sandbox role (000009).
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO zaxy_app', g);
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_cy_' || substr(g, 4)) THEN
    EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', g, 'zaxy_cy_' || substr(g, 4));
  END IF;
  EXECUTE format('DELETE FROM %I."DERIVED_FROM"; DELETE FROM %1$I."COVERS"; DELETE FROM %1$I."SUPERSEDES";
                  DELETE FROM %1$I."CONTRADICTS"; DELETE FROM %1$I."LatentArtifact"; DELETE FROM %1$I."SourceEvent"', g);
  EXECUTE format($q$
    CREATE TEMP TABLE zaxy_latent_nodes ON COMMIT DROP AS
    SELECT a.artifact_id,
           ag_catalog._graphid(ag_catalog._label_id(%1$L, 'LatentArtifact')::int, nextval(%2$L::regclass)) AS gid
    FROM latent_artifacts a WHERE a.space_id = $1
  $q$, g, format('%I.%I', g, 'LatentArtifact_id_seq')) USING p_space;
  EXECUTE format($q$
    INSERT INTO %1$I."LatentArtifact" (id, properties)
    SELECT n.gid, jsonb_build_object('space', a.space_id, 'id', a.artifact_id, 'type', a.artifact_type,
             'summary', a.summary, 'method', a.method, 'confidence', a.confidence, 'review_status', a.review_status,
             'authority_status', a.authority_status, 'valid_from', a.valid_from, 'valid_to', a.valid_to,
             'stale_at', a.stale_at, 'stale_reason', a.stale_reason, 'purpose_profile', a.purpose_profile,
             'reasoning_phase', a.reasoning_phase)::text::ag_catalog.agtype
    FROM latent_artifacts a JOIN zaxy_latent_nodes n USING (artifact_id) WHERE a.space_id = $1
  $q$, g) USING p_space;
  EXECUTE format($q$
    CREATE TEMP TABLE zaxy_latent_events ON COMMIT DROP AS
    SELECT s.seq, min(s.hash) AS hash,
           ag_catalog._graphid(ag_catalog._label_id(%1$L, 'SourceEvent')::int, nextval(%2$L::regclass)) AS gid
    FROM (SELECT (r->>'seq')::bigint AS seq, r->>'hash' AS hash
          FROM latent_artifacts a CROSS JOIN jsonb_array_elements(a.source_event_refs) r WHERE a.space_id = $1) s
    GROUP BY s.seq
  $q$, g, format('%I.%I', g, 'SourceEvent_id_seq')) USING p_space;
  EXECUTE format($q$
    INSERT INTO %1$I."SourceEvent" (id, properties)
    SELECT gid, jsonb_build_object('space', $1, 'seq', seq, 'hash', hash)::text::ag_catalog.agtype FROM zaxy_latent_events
  $q$, g) USING p_space;
  EXECUTE format($q$
    INSERT INTO %1$I."DERIVED_FROM" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'DERIVED_FROM')::int, nextval(%2$L::regclass)),
           n.gid, e.gid, '{}'::ag_catalog.agtype
    FROM latent_artifacts a JOIN zaxy_latent_nodes n USING (artifact_id)
    CROSS JOIN unnest(a.source_seqs) s (seq) JOIN zaxy_latent_events e ON e.seq = s.seq
    WHERE a.space_id = $1
  $q$, g, format('%I.%I', g, 'DERIVED_FROM_id_seq')) USING p_space;
  EXECUTE format($q$
    INSERT INTO %1$I."COVERS" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'COVERS')::int, nextval(%2$L::regclass)),
           n.gid, x.age_node::text::ag_catalog.graphid, '{}'::ag_catalog.agtype
    FROM latent_artifacts a JOIN zaxy_latent_nodes n USING (artifact_id)
    CROSS JOIN unnest(a.entity_refs) r (entity_id)
    JOIN entities x ON x.space_id = a.space_id AND x.entity_id = r.entity_id AND x.age_node IS NOT NULL
    WHERE a.space_id = $1
  $q$, g, format('%I.%I', g, 'COVERS_id_seq')) USING p_space;
  EXECUTE format($q$
    INSERT INTO %1$I."SUPERSEDES" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'SUPERSEDES')::int, nextval(%2$L::regclass)),
           n.gid, o.gid, '{}'::ag_catalog.agtype
    FROM latent_artifacts a JOIN zaxy_latent_nodes n USING (artifact_id)
    JOIN zaxy_latent_nodes o ON o.artifact_id = a.supersedes
    WHERE a.space_id = $1
  $q$, g, format('%I.%I', g, 'SUPERSEDES_id_seq')) USING p_space;
  EXECUTE format($q$
    INSERT INTO %1$I."CONTRADICTS" (id, start_id, end_id, properties)
    SELECT ag_catalog._graphid(ag_catalog._label_id(%1$L, 'CONTRADICTS')::int, nextval(%2$L::regclass)),
           n.gid, o.gid, '{}'::ag_catalog.agtype
    FROM latent_artifacts a JOIN zaxy_latent_nodes n USING (artifact_id)
    CROSS JOIN unnest(a.contradicts) c (artifact_id)
    JOIN zaxy_latent_nodes o ON o.artifact_id = c.artifact_id
    WHERE a.space_id = $1
  $q$, g, format('%I.%I', g, 'CONTRADICTS_id_seq')) USING p_space;
  DROP TABLE zaxy_latent_nodes, zaxy_latent_events;
END $$;


DROP INDEX latent_artifacts_linked;
DROP FUNCTION zaxy_latent_digest(latent_artifacts);
DROP TABLE latent_age_vertices, latent_age_events, latent_age_spaces;
