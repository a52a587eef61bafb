-- Storage (docs/benchmarks.md, "Session 29: entities by the space key"): entities and facts
-- key on the space's 4-byte spaces.space_key (migration 000064) instead of its text id (up to
-- 64 bytes) in every row and index entry, as gate_keys, latent_terms and mentions do (000066).
-- facts goes with entities: its foreign keys reference an entity by (space_key, entity_id).
-- Their queries keep taking the text id and resolve the key in SQL (`space_key = (SELECT
-- space_key FROM spaces WHERE space_id = $1)`, one InitPlan); a space without a spaces row has
-- no rows here. The tables are rewritten in key order and their indexes built after the load,
-- so they come out packed; the columns are ordered so a row has no alignment padding (two
-- 4-byte columns, the 8-byte ones, the smaller fixed-width ones, then the varlenas). The
-- analyst views over them join spaces for the text id and keep their columns. The graph
-- mirror's functions (zaxy_age_sync, zaxy_age_mirror_digest, zaxy_age_drop,
-- zaxy_age_latent_sync) read the tables by the key; no graph is rewritten (each space's label
-- tables stay as they are: locking all of them in one transaction is what a database of many
-- spaces cannot grant, see 000069). A moved space's drop (zaxy_space_drop, as 000072 made it)
-- deletes the rows of tables keyed by the space key alone, these two included.
DROP VIEW memory.current_facts;
DROP VIEW memory.fact_history;
DROP VIEW memory.salience;
DROP VIEW memory.entity_timeline;

CREATE TABLE entities_k (
  space_key       int4    NOT NULL,
  version         integer NOT NULL DEFAULT 1,
  first_seq       bigint  NOT NULL,
  last_seq        bigint  NOT NULL,
  invalidated_seq bigint,
  age_node        bigint,
  mentions        integer NOT NULL DEFAULT 0,
  entity_id       text    NOT NULL,
  key             text    NOT NULL,
  name            text    NOT NULL,
  kinds           text[]  NOT NULL
);
INSERT INTO entities_k (space_key, version, first_seq, last_seq, invalidated_seq, age_node, mentions,
                        entity_id, key, name, kinds)
SELECT s.space_key, e.version, e.first_seq, e.last_seq, e.invalidated_seq, e.age_node, e.mentions,
       e.entity_id, e.key, e.name, e.kinds
FROM entities e JOIN spaces s USING (space_id)
ORDER BY s.space_key, e.entity_id;

CREATE TABLE facts_k (
  space_key      int4        NOT NULL,
  version        integer     NOT NULL,
  recorded_seq   bigint      NOT NULL,
  valid_from     timestamptz NOT NULL,
  valid_to       timestamptz,
  closed_seq     bigint,
  age_edge       bigint,
  age_value_node bigint,
  confidence     real,
  inferred       boolean     NOT NULL DEFAULT false,
  fact_id        text        NOT NULL,
  subject_id     text        NOT NULL,
  predicate      text        NOT NULL,
  object_id      text,
  status         text        NOT NULL DEFAULT 'current',
  superseded_by  text,
  authority      text        NOT NULL,
  review_status  text        NOT NULL DEFAULT 'unreviewed',
  close_reason   text,
  recorded_hash  bytea       NOT NULL,
  value          jsonb,
  evidence       jsonb       NOT NULL,
  CONSTRAINT facts_authority CHECK (authority IN ('asserted', 'extracted', 'inferred')),
  CONSTRAINT facts_closed CHECK ((status = 'current') = (closed_seq IS NULL)),
  CONSTRAINT facts_confidence CHECK (confidence >= 0 AND confidence <= 1),
  CONSTRAINT facts_evidence_array CHECK (jsonb_typeof(evidence) = 'array'),
  CONSTRAINT facts_object_or_value CHECK ((object_id IS NULL) <> (value IS NULL)),
  CONSTRAINT facts_review_status CHECK (review_status IN ('unreviewed', 'proposed', 'accepted', 'rejected', 'deferred', 'conflicted')),
  CONSTRAINT facts_status CHECK (status IN ('current', 'superseded', 'retracted', 'invalidated')),
  CONSTRAINT facts_window CHECK (valid_to IS NULL OR valid_to >= valid_from)
);
INSERT INTO facts_k (space_key, version, recorded_seq, valid_from, valid_to, closed_seq, age_edge, age_value_node,
                     confidence, inferred, fact_id, subject_id, predicate, object_id, status, superseded_by,
                     authority, review_status, close_reason, recorded_hash, value, evidence)
SELECT s.space_key, f.version, f.recorded_seq, f.valid_from, f.valid_to, f.closed_seq, f.age_edge, f.age_value_node,
       f.confidence, f.inferred, f.fact_id, f.subject_id, f.predicate, f.object_id, f.status, f.superseded_by,
       f.authority, f.review_status, f.close_reason, f.recorded_hash, f.value, f.evidence
FROM facts f JOIN spaces s USING (space_id)
ORDER BY s.space_key, f.fact_id;

DROP TABLE facts;
DROP TABLE entities;
ALTER TABLE entities_k RENAME TO entities;
ALTER TABLE facts_k RENAME TO facts;
ALTER TABLE entities ADD CONSTRAINT entities_pkey PRIMARY KEY (space_key, entity_id);
ALTER TABLE facts ADD CONSTRAINT facts_pkey PRIMARY KEY (space_key, fact_id);
CREATE INDEX facts_closed_by_recorded ON facts (space_key, recorded_seq) WHERE closed_seq IS NOT NULL;
CREATE UNIQUE INDEX facts_current ON facts (space_key, subject_id, predicate) WHERE status = 'current';
CREATE INDEX facts_object ON facts (space_key, object_id, recorded_seq) WHERE object_id IS NOT NULL;
CREATE INDEX facts_pair ON facts (space_key, subject_id, predicate, version);
CREATE INDEX facts_recorded ON facts (space_key, recorded_seq);
ALTER TABLE facts ADD CONSTRAINT facts_space_key_subject_id_fkey FOREIGN KEY (space_key, subject_id) REFERENCES entities (space_key, entity_id);
ALTER TABLE facts ADD CONSTRAINT facts_space_key_object_id_fkey FOREIGN KEY (space_key, object_id) REFERENCES entities (space_key, entity_id);
COMMENT ON TABLE entities IS 'Entities the projector extracted or was told of, by spaces.space_key; entity_id is a hash of the space and the key (graph.EntityID).';
COMMENT ON TABLE facts IS 'Fact versions (subject, predicate, object entity or value) with their validity and evidence, by spaces.space_key.';

CREATE VIEW memory.current_facts AS
SELECT sp.space_id, s.name AS subject, f.predicate, coalesce(o.name, f.value #>> '{}') AS object, f.value,
       f.version, f.valid_from, f.valid_to, f.authority, f.review_status, f.inferred, f.confidence,
       f.recorded_seq, encode(f.recorded_hash, 'hex') AS recorded_hash,
       jsonb_array_length(f.evidence) AS evidence_count, f.fact_id, f.subject_id, f.object_id
FROM facts f
JOIN spaces sp ON sp.space_key = f.space_key
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
WHERE f.status = 'current';

CREATE VIEW memory.fact_history AS
SELECT sp.space_id, s.name AS subject, f.predicate, coalesce(o.name, f.value #>> '{}') AS object,
       f.version, f.status, f.valid_from, f.valid_to, f.recorded_seq, f.closed_seq, f.close_reason,
       f.superseded_by, f.authority, f.inferred, f.fact_id
FROM facts f
JOIN spaces sp ON sp.space_key = f.space_key
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id;

-- Every memory item with the components of its salience (000020); a fact item's authority
-- comes from its fact, found through its space's key.
CREATE VIEW memory.salience AS
SELECT x.space_id, x.item_id, x.kind, x.seq, x.event_type, x.occurred_at, x.authority,
       x.base, x.reinforcement, x.decay,
       round((CASE WHEN x.exempt IS NOT NULL THEN greatest(x.raw, x.floor) ELSE x.raw END)::numeric, 9)::float8 AS salience,
       x.exempt IS NULL AND round(x.raw::numeric, 9) < x.floor AS attenuated,
       x.pinned, x.exempt, x.floor, x.half_life_days,
       x.surfaced, x.helpful, x.unhelpful, x.wrong, x.outdated, x.invalidated, x.repeated,
       x.last_use_at, x.last_use_seq, x.last_use_signal, x.redundant_of
FROM (
  SELECT k.space_id, mi.item_id, mi.kind, mi.seq, mi.event_type, mi.occurred_at,
         coalesce(f.authority, 'log') AS authority,
         zaxy_salience_base(coalesce(f.authority, 'log')) AS base,
         coalesce(sa.reinforcement, 1) AS reinforcement,
         zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, now(),
                             coalesce(sp.half_life_days, 30)) AS decay,
         zaxy_salience_base(coalesce(f.authority, 'log')) * coalesce(sa.reinforcement, 1)
           * zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, now(),
                                 coalesce(sp.half_life_days, 30)) AS raw,
         coalesce(sa.pinned, false) AS pinned,
         CASE WHEN coalesce(sa.pinned, false) THEN 'pinned' WHEN f.authority = 'asserted' THEN 'asserted' END AS exempt,
         coalesce(sp.floor, 0.1) AS floor, coalesce(sp.half_life_days, 30) AS half_life_days,
         coalesce(sa.surfaced, 0) AS surfaced, coalesce(sa.helpful, 0) AS helpful,
         coalesce(sa.unhelpful, 0) AS unhelpful, coalesce(sa.wrong, 0) AS wrong,
         coalesce(sa.outdated, 0) AS outdated, coalesce(sa.invalidated, 0) AS invalidated,
         coalesce(sa.repeated, 0) AS repeated,
         coalesce(sa.last_use_at, mi.occurred_at) AS last_use_at, sa.last_use_seq, sa.last_use_signal,
         mi.redundant_of
  FROM memory_items mi
  JOIN spaces k ON k.space_key = mi.space_key
  LEFT JOIN facts f ON mi.kind = 'fact' AND f.space_key = mi.space_key AND f.fact_id = substr(mi.item_id, 6)
  LEFT JOIN salience sa ON sa.space_id = k.space_id AND sa.item_id = mi.item_id
  LEFT JOIN salience_spaces sp ON sp.space_id = k.space_id
) x;

-- What happened to each entity, in log order: mentions and fact versions.
CREATE VIEW memory.entity_timeline AS
SELECT sp.space_id, e.entity_id, e.name AS entity, m.seq, ev.occurred_at, 'mention'::text AS what,
       substr(ev.content, m.start_byte + 1, m.end_byte - m.start_byte) AS detail
FROM entities e
JOIN spaces sp ON sp.space_key = e.space_key
JOIN mentions m ON m.space_key = e.space_key AND m.entity_id = e.entity_id
JOIN events ev ON ev.space_id = sp.space_id AND ev.seq = m.seq
UNION ALL
SELECT sp.space_id, e.entity_id, e.name, f.recorded_seq, f.valid_from,
       'fact ' || f.status, f.predicate || ' ' || coalesce(o.name, f.value #>> '{}')
FROM entities e
JOIN spaces sp ON sp.space_key = e.space_key
JOIN facts f ON f.space_key = e.space_key AND f.subject_id = e.entity_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id;

-- The graph mirror (000069): an entity's or fact's rows by the space's key.
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
        FROM entities e WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND e.entity_id = ANY ($2)
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
      FROM fresh f WHERE f.assign AND e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND e.entity_id = f.entity_id
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
        JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
        LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
        WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.fact_id = ANY ($2)
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
      FROM fresh n WHERE n.assign AND f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.fact_id = n.fact_id
    $q$, g, format('%I.%I', g, 'FACT_id_seq'), format('%I.%I', g, 'Value_id_seq')) USING p_space, p_facts;
  END IF;
END $$;

-- The AGE mirror check (000069), reading the relational side by the space's key.
CREATE OR REPLACE FUNCTION zaxy_age_mirror_digest(p_space text,
  OUT expected text, OUT actual text, OUT expected_lines bigint, OUT actual_lines bigint)
LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
  v_key int4 := (SELECT k.space_key FROM spaces k WHERE k.space_id = p_space);
BEGIN
  SELECT encode(sha256(convert_to(coalesce(string_agg(line, E'\n' ORDER BY line), ''), 'UTF8')), 'hex'), count(*)
    INTO expected, expected_lines
  FROM (
    SELECT concat_ws('|', 'E', coalesce(e.age_node::text, 'unmirrored:' || e.entity_id),
             jsonb_strip_nulls(jsonb_build_object('id', e.entity_id, 'key', e.key, 'name', e.name,
               'kinds', to_jsonb(e.kinds), 'version', e.version, 'first_seq', e.first_seq,
               'invalidated_seq', e.invalidated_seq))::text) AS line
    FROM entities e WHERE e.space_key = v_key
    UNION ALL
    SELECT concat_ws('|', 'F', coalesce(f.age_edge::text, 'unmirrored:' || f.fact_id), s.age_node,
             coalesce(o.age_node, f.age_value_node),
             jsonb_build_object('id', f.fact_id, 'predicate', f.predicate,
               'version', f.version, 'status', f.status, 'valid_from', f.valid_from, 'valid_to', f.valid_to,
               'recorded_seq', f.recorded_seq, 'closed_seq', f.closed_seq, 'superseded_by', f.superseded_by,
               'authority', f.authority, 'inferred', f.inferred, 'value', f.value)::text)
    FROM facts f
    JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
    LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
    WHERE f.space_key = v_key
    UNION ALL
    SELECT concat_ws('|', 'V', coalesce(f.age_value_node::text, 'unmirrored:' || f.fact_id),
             jsonb_build_object('fact_id', f.fact_id, 'value', f.value)::text)
    FROM facts f WHERE f.space_key = v_key AND f.value IS NOT NULL
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

-- As in 000009: the graph goes, and the rows forget their graph ids.
CREATE OR REPLACE FUNCTION zaxy_age_drop(p_space text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, ag_catalog, pg_temp AS $$
DECLARE
  g text;
  v_key int4 := (SELECT k.space_key FROM spaces k WHERE k.space_id = p_space);
BEGIN
  SELECT graph_name INTO g FROM age_graphs WHERE space_id = p_space;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  EXECUTE format('DROP FUNCTION IF EXISTS zaxy_cypher.%I(text, integer, integer, integer, bigint)', g);
  PERFORM ag_catalog.drop_graph(g::name, true);
  DELETE FROM age_graphs WHERE space_id = p_space;
  UPDATE entities SET age_node = NULL WHERE space_key = v_key AND age_node IS NOT NULL;
  UPDATE facts SET age_edge = NULL, age_value_node = NULL WHERE space_key = v_key AND age_edge IS NOT NULL;
END $$;

-- As in 000061; COVERS edges find an entity's vertex by the space's key.
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
      JOIN entities x ON x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND x.entity_id = r.entity_id AND x.age_node IS NOT NULL
      WHERE v.space_id = $1 AND v.covers_pending
    $q$, g, format('%I.%I', g, 'COVERS_id_seq')) USING p_space;
    UPDATE latent_age_vertices v SET covers_pending = EXISTS (
      SELECT FROM unnest(a.entity_refs) r (entity_id)
      LEFT JOIN entities x ON x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = p_space) AND x.entity_id = r.entity_id
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

REVOKE ALL ON entities, facts FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON entities, facts TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.current_facts, memory.fact_history, memory.salience, memory.entity_timeline TO zaxy_analyst;
  END IF;
END $$;
