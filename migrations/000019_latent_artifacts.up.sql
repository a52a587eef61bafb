-- The latent layer's artifacts (package latent, docs/latent.md): derived, non-authoritative
-- material (episodes, procedures, failures, preferences, causal links) computed from a space's
-- log and projections by the latent_rebuild job. Like every projection the table is discarded
-- and rebuilt with the others, and the projection checksum covers it: an artifact that could
-- not be rebuilt from the log would be a cache, not memory.

CREATE TABLE latent_artifacts (
  space_id          text NOT NULL,
  -- Content address: hex sha256 of the artifact's canonical encoding (latent.Artifact.ID).
  artifact_id       text NOT NULL CONSTRAINT latent_artifacts_id CHECK (artifact_id ~ '^[0-9a-f]{64}$'),
  -- The producer's name for what this is a version of (e.g. episode:<session>): a new
  -- version of a slot replaces the old one unless the old one is stale.
  slot              text NOT NULL,
  artifact_type     text NOT NULL
                    CONSTRAINT latent_artifacts_type CHECK (artifact_type IN ('episode', 'procedure', 'failure', 'preference', 'causal')),
  summary           text NOT NULL,
  -- The cited events, [{"seq": n, "hash": "<hex>"}], in seq order; source_seqs repeats the seqs
  -- for the index that finds the artifacts citing an event.
  source_event_refs jsonb NOT NULL CONSTRAINT latent_artifacts_sources CHECK (jsonb_typeof(source_event_refs) = 'array'),
  source_seqs       bigint[] NOT NULL,
  entity_refs       text[] NOT NULL DEFAULT '{}',
  valid_from        timestamptz,
  valid_to          timestamptz,
  -- The producers' version (latent.ProjectionVersion): a new one means rebuild.
  projection_version integer NOT NULL,
  method            text NOT NULL CONSTRAINT latent_artifacts_method CHECK (method IN ('deterministic', 'learned', 'llm-assisted')),
  confidence        real NOT NULL CONSTRAINT latent_artifacts_confidence CHECK (confidence BETWEEN 0 AND 1),
  review_status     text NOT NULL DEFAULT 'unreviewed'
                    CONSTRAINT latent_artifacts_review CHECK (review_status IN ('unreviewed', 'proposed', 'accepted', 'rejected', 'deferred')),
  authority_status  text NOT NULL DEFAULT 'non_authoritative'
                    CONSTRAINT latent_artifacts_authority CHECK (authority_status IN ('non_authoritative', 'authoritative')),
  purpose_profile   text NOT NULL,
  reasoning_phase   text NOT NULL,
  payload_kind      text NOT NULL CONSTRAINT latent_artifacts_payload_kind CHECK (payload_kind IN ('jsonb', 'vector')),
  payload           jsonb,
  payload_vector    vector,
  supersedes        text,
  contradicts       text[] NOT NULL DEFAULT '{}',
  -- Set when a cited event was invalidated, erased or its fact superseded: the event that did
  -- it, when it occurred and which of the three it was. Stale artifacts are never read as
  -- current (view latent_current).
  stale_at          timestamptz,
  stale_seq         bigint,
  stale_reason      text CONSTRAINT latent_artifacts_stale_reason CHECK (stale_reason IN ('invalidated', 'erased', 'superseded')),
  diagnostics       jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (space_id, artifact_id),
  CONSTRAINT latent_artifacts_payload CHECK (
    (payload_kind = 'jsonb' AND payload IS NOT NULL) OR (payload_kind = 'vector' AND payload_vector IS NOT NULL)),
  CONSTRAINT latent_artifacts_stale CHECK ((stale_at IS NULL) = (stale_seq IS NULL) AND (stale_at IS NULL) = (stale_reason IS NULL))
);

CREATE INDEX latent_artifacts_slot ON latent_artifacts (space_id, slot);
CREATE INDEX latent_artifacts_sources ON latent_artifacts USING gin (source_seqs);
CREATE INDEX latent_artifacts_current ON latent_artifacts (space_id, artifact_type) WHERE stale_at IS NULL;

-- How far each space's artifacts are built: the projection watermark the last build reached.
CREATE TABLE latent_watermarks (
  space_id   text PRIMARY KEY REFERENCES spaces (space_id),
  built_seq  bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The artifacts a reader may use: never stale ones.
CREATE VIEW latent_current AS
SELECT * FROM latent_artifacts WHERE stale_at IS NULL;

-- For analysts: current artifacts with their cited seqs.
CREATE VIEW memory.latent_artifacts AS
SELECT space_id, artifact_id, artifact_type, summary, source_seqs, entity_refs, valid_from, valid_to,
       method, confidence, review_status, authority_status, purpose_profile, reasoning_phase, payload,
       supersedes, diagnostics
FROM latent_artifacts WHERE stale_at IS NULL;

-- Mirrors a space's artifacts into its AGE graph, replacing the previous mirror: LatentArtifact
-- vertices, SourceEvent vertices for the cited events, and DERIVED_FROM (artifact → event),
-- COVERS (artifact → Entity), SUPERSEDES and CONTRADICTS (artifact → artifact) edges. Written
-- through the label tables, as zaxy_age_sync; no user text is ever formatted into a statement.
CREATE FUNCTION zaxy_age_latent_sync(p_space text) RETURNS void
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

REVOKE EXECUTE ON FUNCTION zaxy_age_latent_sync(text) FROM PUBLIC;

-- The AGE mirror check (000009) compares the graph with the relational entities and facts; the
-- latent labels are the artifacts' mirror, written whole by zaxy_age_latent_sync, and are left
-- out of it rather than reported as strangers. (CREATE OR REPLACE keeps the grants.)
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

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT EXECUTE ON FUNCTION zaxy_age_latent_sync(text) TO zaxy_app;
    GRANT SELECT, INSERT, UPDATE, DELETE ON latent_artifacts, latent_watermarks TO zaxy_app;
    GRANT SELECT ON latent_current TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.latent_artifacts TO zaxy_analyst;
  END IF;
END $$;
