-- Stable, documented views for SQL analysts (docs/sql-cookbook.md), in their own schema, and
-- a read-only role that sees only them. The views run with their owner's rights, so the role
-- needs no access to the tables underneath.
CREATE SCHEMA memory;

-- Facts as memory holds them now, with readable names and the citing event.
CREATE VIEW memory.current_facts AS
SELECT f.space_id, s.name AS subject, f.predicate,
       coalesce(o.name, f.value #>> '{}') AS object, f.value, f.version,
       f.valid_from, f.valid_to, f.authority, f.review_status, f.inferred, f.confidence,
       f.recorded_seq, encode(f.recorded_hash, 'hex') AS recorded_hash,
       jsonb_array_length(f.evidence) AS evidence_count, f.fact_id, f.subject_id, f.object_id
FROM facts f
JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id
WHERE f.status = 'current';

-- Every version of every fact, open or closed, with how and when it closed.
CREATE VIEW memory.fact_history AS
SELECT f.space_id, s.name AS subject, f.predicate,
       coalesce(o.name, f.value #>> '{}') AS object, f.version, f.status,
       f.valid_from, f.valid_to, f.recorded_seq, f.closed_seq, f.close_reason, f.superseded_by,
       f.authority, f.inferred, f.fact_id
FROM facts f
JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id;

-- What happened to each entity, in log order: mentions and fact versions.
CREATE VIEW memory.entity_timeline AS
SELECT e.space_id, e.entity_id, e.name AS entity, m.seq, ev.occurred_at, 'mention'::text AS what,
       substr(ev.content, m.start_byte + 1, m.end_byte - m.start_byte) AS detail
FROM entities e
JOIN mentions m ON m.space_id = e.space_id AND m.entity_id = e.entity_id
JOIN events ev ON ev.space_id = m.space_id AND ev.seq = m.seq
UNION ALL
SELECT e.space_id, e.entity_id, e.name, f.recorded_seq, f.valid_from,
       'fact ' || f.status, f.predicate || ' ' || coalesce(o.name, f.value #>> '{}')
FROM entities e
JOIN facts f ON f.space_id = e.space_id AND f.subject_id = e.entity_id
LEFT JOIN entities o ON o.space_id = f.space_id AND o.entity_id = f.object_id;

-- The log, readable: hashes in hex, bookkeeping flagged, invalidations joined.
CREATE VIEW memory.events AS
SELECT e.space_id, e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.recorded_at,
       e.content, e.data, e.cues, encode(e.hash, 'hex') AS hash, encode(e.prev_hash, 'hex') AS prev_hash,
       (e.type LIKE 'checkout.%' OR e.type LIKE 'zaxy.%') AS bookkeeping,
       (SELECT string_agg(v.reason, '; ') FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq) AS invalidated
FROM events e;

-- One row per item each checkout surfaced.
CREATE VIEW memory.checkout_log AS
SELECT e.space_id, e.seq AS checkout_seq, e.recorded_at, e.session_id,
       e.data->>'purpose' AS purpose, (e.data->>'max_tokens')::int AS max_tokens,
       (e.data->>'used_tokens')::int AS used_tokens, i.ord::int AS position,
       i.item->>'item_id' AS item_id, i.item->>'tier' AS tier,
       ARRAY(SELECT jsonb_array_elements_text(coalesce(i.item->'seqs', '[]'))::bigint) AS cited_seqs
FROM events e
CROSS JOIN LATERAL jsonb_array_elements(e.data->'items') WITH ORDINALITY AS i (item, ord)
WHERE e.type = 'checkout.surfaced';

-- How far projection has come per space.
CREATE VIEW memory.projection_status AS SELECT * FROM projection_status;

DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    BEGIN
      CREATE ROLE zaxy_analyst NOLOGIN;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'cannot create role zaxy_analyst (no CREATEROLE); create it and re-grant, see docs/sql-cookbook.md';
    END;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT USAGE ON SCHEMA memory TO zaxy_analyst;
    GRANT SELECT ON ALL TABLES IN SCHEMA memory TO zaxy_analyst;
  END IF;
END $$;
