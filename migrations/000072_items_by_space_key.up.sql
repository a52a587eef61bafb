-- Storage (docs/benchmarks.md, "Session 29: memory_items by the space key"): memory_items keys
-- on the space's 4-byte spaces.space_key (migration 000064) instead of its text id (up to 64
-- bytes) in every row and in every index entry (the primary key, the seq index, the two partial
-- indexes of the encoding gate's tags and the GIN index the keyword lane searches). Its queries
-- keep taking the text id and resolve the key in SQL (`space_key = (SELECT space_key FROM
-- spaces WHERE space_id = $1)`, one InitPlan); a space without a spaces row has no items (every
-- event creates its space's row, and items are made of events). The table is rewritten in
-- (space_key, seq) order, the projector's order, and its indexes built after the load, so they
-- come out packed. Columns are ordered so the fixed-width ones come first without alignment
-- padding. The views over it (memory.salience, latent_centroids and memory.latent_centroids)
-- read the text id through spaces and keep their columns; zaxy_erased_pending_items resolves the key.
DROP VIEW memory.latent_centroids;
DROP VIEW latent_centroids;
DROP VIEW memory.salience;

CREATE TABLE memory_items_k (
  space_key    int4        NOT NULL,
  ts_config    regconfig   NOT NULL,
  seq          bigint      NOT NULL,
  occurred_at  timestamptz NOT NULL,
  tsv_len      integer     GENERATED ALWAYS AS (zaxy_tsv_length(tsv)) STORED,
  item_id      text        NOT NULL,
  kind         text        NOT NULL,
  event_type   text        NOT NULL,
  session_id   text        NOT NULL DEFAULT '',
  text         text,
  tsv          tsvector    NOT NULL,
  redundant_of text,
  CONSTRAINT memory_items_kind CHECK (kind IN ('event', 'fact'))
);
INSERT INTO memory_items_k (space_key, ts_config, seq, occurred_at, item_id, kind, event_type, session_id, text, tsv, redundant_of)
SELECT s.space_key, m.ts_config, m.seq, m.occurred_at, m.item_id, m.kind, m.event_type, m.session_id, m.text, m.tsv, m.redundant_of
FROM memory_items m JOIN spaces s USING (space_id)
ORDER BY s.space_key, m.seq, m.item_id;
DROP TABLE memory_items;
ALTER TABLE memory_items_k RENAME TO memory_items;
ALTER TABLE memory_items ADD CONSTRAINT memory_items_pkey PRIMARY KEY (space_key, item_id);
CREATE INDEX memory_items_seq ON memory_items (space_key, seq);
CREATE INDEX memory_items_redundant ON memory_items (space_key, item_id) INCLUDE (redundant_of) WHERE redundant_of IS NOT NULL;
CREATE INDEX memory_items_repeats ON memory_items (space_key, redundant_of, seq) INCLUDE (occurred_at) WHERE redundant_of IS NOT NULL;
CREATE INDEX memory_items_tsv ON memory_items USING gin (space_key, tsv) WITH (gin_pending_list_limit = 256);
COMMENT ON TABLE memory_items IS 'Memory items (events and fact versions) with their full-text vectors, by spaces.space_key.';
COMMENT ON COLUMN memory_items.text IS 'The item''s text when it is not its event''s content (facts, typed events); NULL means events.content of (space_id, seq): read coalesce(text, events.content).';

-- The memory items of the events whose erasure is pending (migration 000054), by the key.
CREATE OR REPLACE FUNCTION zaxy_erased_pending_items(space text) RETURNS text[]
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN (SELECT coalesce(array_agg(i.item_id ORDER BY i.item_id), '{}')
          FROM memory_items i
          WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = space)
            AND i.seq = ANY (zaxy_erased_pending(space)));
END $$;

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
  LEFT JOIN facts f ON mi.kind = 'fact' AND f.space_id = k.space_id AND f.fact_id = substr(mi.item_id, 6)
  LEFT JOIN salience sa ON sa.space_id = k.space_id AND sa.item_id = mi.item_id
  LEFT JOIN salience_spaces sp ON sp.space_id = k.space_id
) x;

CREATE VIEW latent_centroids AS
SELECT a.space_id, a.artifact_id, a.artifact_type, e.model, e.dim,
       avg(e.embedding::vector) AS centroid,
       count(DISTINCT s.seq)::integer AS embedded,
       (SELECT count(*) FROM latent_sources x WHERE x.space_id = a.space_id AND x.artifact_id = a.artifact_id)::integer AS sources
FROM latent_current a
JOIN latent_sources s ON s.space_id = a.space_id AND s.artifact_id = a.artifact_id
JOIN spaces k ON k.space_id = s.space_id
JOIN memory_items m ON m.space_key = k.space_key AND m.seq = s.seq
JOIN embeddings e ON e.space_id = s.space_id AND e.item_id = m.item_id
GROUP BY a.space_id, a.artifact_id, a.artifact_type, e.model, e.dim;

CREATE VIEW memory.latent_centroids AS
SELECT space_id, artifact_id, artifact_type, model, dim, centroid, embedded, sources FROM latent_centroids;

-- Drops the source copy of a moved space (migration 000056): every row of every table of this
-- schema with a space_id column, and also of those keyed by the space's space_key alone
-- (memory_items, term_stats, gate_keys, latent_terms, mentions), the key read before the
-- spaces row goes.
CREATE OR REPLACE FUNCTION zaxy_space_drop(p_space text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  left_tables text[];
  ready text[];
  t text;
  n bigint;
  dropped bigint := 0;
  p_key int4;
BEGIN
  PERFORM pg_advisory_xact_lock(1517840761, hashtext(p_space));
  IF NOT EXISTS (SELECT FROM space_freezes WHERE space_id = p_space AND state = 'moved') THEN
    RAISE EXCEPTION 'space % has not moved off this cluster: only a moved space''s source copy is dropped', p_space
      USING ERRCODE = 'ZX051';
  END IF;
  INSERT INTO space_drops (space_id) VALUES (p_space) ON CONFLICT DO NOTHING;
  IF to_regprocedure('zaxy_age_drop(text)') IS NOT NULL THEN
    PERFORM zaxy_age_drop(p_space);
  END IF;
  p_key := (SELECT s.space_key FROM spaces s WHERE s.space_id = p_space);
  SELECT array_agg(DISTINCT c.relname::text) INTO left_tables
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
  WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
    AND a.attname IN ('space_id', 'space_key') AND NOT a.attisdropped
    AND c.relname NOT IN ('space_freezes', 'space_drops', 'space_imports', 'space_placements');
  WHILE cardinality(left_tables) > 0 LOOP
    -- The tables no other remaining table references.
    SELECT array_agg(x) INTO ready FROM unnest(left_tables) x
    WHERE NOT EXISTS (
      SELECT FROM pg_constraint k
      JOIN pg_class child ON child.oid = k.conrelid
      JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND parent.relname = x AND child.relname <> x
        AND child.relname = ANY (left_tables));
    IF ready IS NULL THEN
      RAISE EXCEPTION 'drop space %: the tables % reference each other', p_space, left_tables;
    END IF;
    FOREACH t IN ARRAY ready LOOP
      IF EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = t::regclass AND a.attname = 'space_id' AND NOT a.attisdropped) THEN
        EXECUTE format('DELETE FROM %I WHERE space_id = $1', t) USING p_space;
      ELSE
        EXECUTE format('DELETE FROM %I WHERE space_key = $1', t) USING p_key;
      END IF;
      GET DIAGNOSTICS n = ROW_COUNT;
      IF t = 'events' THEN
        dropped := n;
      END IF;
    END LOOP;
    left_tables := ARRAY(SELECT unnest(left_tables) EXCEPT SELECT unnest(ready));
  END LOOP;
  DELETE FROM space_freezes WHERE space_id = p_space;
  DELETE FROM space_drops WHERE space_id = p_space;
  RETURN dropped;
END $$;

REVOKE EXECUTE ON FUNCTION zaxy_space_drop(text) FROM PUBLIC;

REVOKE ALL ON memory_items FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE, MAINTAIN ON memory_items TO zaxy_app;
    GRANT SELECT ON latent_centroids TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.salience, memory.latent_centroids TO zaxy_analyst;
  END IF;
END $$;
