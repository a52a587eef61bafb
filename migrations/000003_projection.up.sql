-- Projections: everything here is derived from the Eventloom and can be discarded and rebuilt
-- by replaying it (zaxy rebuild). The projector writes these tables and each space's watermark
-- in one transaction, so projection is exactly-once and in seq order. docs/projections.md.

CREATE EXTENSION IF NOT EXISTS btree_gin;

-- How far each space has been projected. The projector locks this row while it works, so two
-- workers never project one space at once.
CREATE TABLE projection_watermarks (
  space_id       text PRIMARY KEY REFERENCES spaces (space_id),
  projected_seq  bigint NOT NULL DEFAULT 0 CONSTRAINT projection_watermarks_seq CHECK (projected_seq >= 0),
  projected_hash bytea,
  updated_at     timestamptz NOT NULL DEFAULT clock_timestamp()
);

COMMENT ON TABLE projection_watermarks IS 'Last seq of each space applied to the projections, written with them.';

-- Entities: anything memory talks about. One row per normalized key in a space; the id is a
-- digest of (space, key), so a rebuild gives the same ids. version counts changes to the row.
CREATE TABLE entities (
  space_id        text NOT NULL,
  entity_id       text NOT NULL,
  key             text NOT NULL,
  name            text NOT NULL,
  kinds           text[] NOT NULL,
  version         integer NOT NULL DEFAULT 1,
  first_seq       bigint NOT NULL,
  first_hash      bytea NOT NULL,
  last_seq        bigint NOT NULL,
  mentions        integer NOT NULL DEFAULT 0,
  invalidated_seq bigint,
  PRIMARY KEY (space_id, entity_id),
  CONSTRAINT entities_key_unique UNIQUE (space_id, key)
);

-- Mentions link an event to the entities its text names, with the byte range of the mention.
CREATE TABLE mentions (
  space_id   text NOT NULL,
  seq        bigint NOT NULL,
  start_byte integer NOT NULL,
  end_byte   integer NOT NULL CONSTRAINT mentions_range CHECK (end_byte > start_byte),
  entity_id  text NOT NULL,
  kind       text NOT NULL,
  hash       bytea NOT NULL,
  PRIMARY KEY (space_id, seq, start_byte),
  FOREIGN KEY (space_id, entity_id) REFERENCES entities (space_id, entity_id)
);

CREATE INDEX mentions_entity ON mentions (space_id, entity_id, seq);

-- Facts are the edges of the temporal graph: subject -predicate-> object entity or value.
-- A (subject, predicate) pair has one current version; reasserting a different value closes
-- it (closed_seq, valid_to, superseded_by) and opens a new row; a retraction or an
-- invalidation closes it. Rows are never overwritten, only closed.
CREATE TABLE facts (
  space_id      text NOT NULL,
  fact_id       text NOT NULL,
  subject_id    text NOT NULL,
  predicate     text NOT NULL,
  object_id     text,
  value         jsonb,
  version       integer NOT NULL,
  valid_from    timestamptz NOT NULL,
  valid_to      timestamptz,
  recorded_seq  bigint NOT NULL,
  recorded_hash bytea NOT NULL,
  closed_seq    bigint,
  status        text NOT NULL DEFAULT 'current'
                CONSTRAINT facts_status CHECK (status IN ('current', 'superseded', 'retracted', 'invalidated')),
  superseded_by text,
  authority     text NOT NULL
                CONSTRAINT facts_authority CHECK (authority IN ('asserted', 'extracted', 'inferred')),
  review_status text NOT NULL DEFAULT 'unreviewed'
                CONSTRAINT facts_review_status CHECK (review_status IN ('unreviewed', 'accepted', 'rejected')),
  inferred      boolean NOT NULL DEFAULT false,
  confidence    real CONSTRAINT facts_confidence CHECK (confidence BETWEEN 0 AND 1),
  evidence      jsonb NOT NULL CONSTRAINT facts_evidence_array CHECK (jsonb_typeof(evidence) = 'array'),
  close_reason  text,
  PRIMARY KEY (space_id, fact_id),
  CONSTRAINT facts_object_or_value CHECK ((object_id IS NULL) <> (value IS NULL)),
  CONSTRAINT facts_window CHECK (valid_to IS NULL OR valid_to >= valid_from),
  CONSTRAINT facts_closed CHECK ((status = 'current') = (closed_seq IS NULL)),
  FOREIGN KEY (space_id, subject_id) REFERENCES entities (space_id, entity_id),
  FOREIGN KEY (space_id, object_id) REFERENCES entities (space_id, entity_id)
);

-- At most one current version per (subject, predicate).
CREATE UNIQUE INDEX facts_current ON facts (space_id, subject_id, predicate) WHERE status = 'current';
CREATE INDEX facts_pair ON facts (space_id, subject_id, predicate, version);
CREATE INDEX facts_object ON facts (space_id, object_id, recorded_seq) WHERE object_id IS NOT NULL;
CREATE INDEX facts_recorded ON facts (space_id, recorded_seq);

-- Events the log itself marks as wrong (memory.invalidated with target_seq). They stay in the
-- log and reachable; ranking attenuates them and checkout labels them.
CREATE TABLE invalidations (
  space_id   text NOT NULL,
  target_seq bigint NOT NULL,
  seq        bigint NOT NULL,
  hash       bytea NOT NULL,
  reason     text NOT NULL,
  PRIMARY KEY (space_id, target_seq, seq)
);

-- Memory text: one row per retrievable item (an event, or a fact version) with its full-text
-- vector. ts_config records the text search configuration the row was built with.
CREATE TABLE memory_items (
  space_id   text NOT NULL,
  item_id    text NOT NULL,
  kind       text NOT NULL CONSTRAINT memory_items_kind CHECK (kind IN ('event', 'fact')),
  seq        bigint NOT NULL,
  event_type text NOT NULL,
  session_id text NOT NULL DEFAULT '',
  occurred_at timestamptz NOT NULL,
  text       text NOT NULL,
  ts_config  regconfig NOT NULL,
  tsv        tsvector NOT NULL,
  PRIMARY KEY (space_id, item_id)
);

-- Full text scoped by space in the index itself (btree_gin), so a space's search does not
-- grow with the other spaces; a small pending list keeps queries from scanning megabytes of
-- not yet merged entries after bulk projection.
CREATE INDEX memory_items_tsv ON memory_items USING gin (space_id, tsv) WITH (gin_pending_list_limit = 256);
CREATE INDEX memory_items_seq ON memory_items (space_id, seq);

-- Embeddings of memory items, one row per item and model. model is "name@version"; vectors of
-- different models or dimensions are never compared. Each model gets its own partial HNSW
-- index over embedding::halfvec(dim) (half the memory traffic of float4, same ranking in
-- practice), created by zaxy_ensure_vector_index with m = 32, ef_construction = 128: the
-- offline embedder's hashed vectors need the denser graph for recall@10 >= 0.95
-- (docs/benchmarks.md). A vector is a pure
-- function of (model, text), so a rebuild keeps the rows whose item still has the same text
-- (text_hash) and prunes the rest; readers always join through memory_items.
CREATE TABLE embeddings (
  space_id   text NOT NULL,
  item_id    text NOT NULL,
  model      text NOT NULL CONSTRAINT embeddings_model_format CHECK (model ~ '^[^@\s]+@[^@\s]+$'),
  dim        integer NOT NULL CONSTRAINT embeddings_dim CHECK (dim BETWEEN 1 AND 4000),
  embedding  vector NOT NULL,
  text_hash  bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  -- Whether the row is in the model's HNSW index: only spaces listed in vector_spaces (more
  -- than 5,000 vectors) are; small spaces are scanned exactly and never pay for HNSW inserts.
  indexed    boolean NOT NULL DEFAULT false,
  PRIMARY KEY (space_id, item_id, model),
  CONSTRAINT embeddings_dim_matches CHECK (vector_dims(embedding) = dim)
);

CREATE INDEX embeddings_unindexed ON embeddings (space_id, model) WHERE NOT indexed;

-- Spaces whose vectors of a model are in its HNSW index (promoted when they grow past 5,000).
CREATE TABLE vector_spaces (
  space_id    text NOT NULL,
  model       text NOT NULL,
  promoted_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, model)
);

-- Every model ever used, with its dimension: a second dimension for one model is refused.
CREATE TABLE embedding_models (
  model      text PRIMARY KEY,
  dim        integer NOT NULL,
  index_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Creates the partial HNSW index for one model (SECURITY DEFINER: the application role may
-- not create indexes). Raises SQLSTATE ZX010 when the model is known with another dimension.
CREATE FUNCTION zaxy_ensure_vector_index(p_model text, p_dim integer) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
  known integer;
  idx text := 'embeddings_hnsw_' || substr(encode(sha256(convert_to(p_model, 'UTF8')), 'hex'), 1, 16);
BEGIN
  IF p_dim IS NULL OR p_dim < 1 OR p_dim > 4000 THEN
    RAISE EXCEPTION 'embedding dimension must be between 1 and 4000 for an HNSW index, got %', p_dim
      USING ERRCODE = 'ZX010';
  END IF;
  PERFORM pg_advisory_xact_lock(1517840763, hashtext(p_model));
  SELECT m.dim INTO known FROM embedding_models m WHERE m.model = p_model;
  IF FOUND THEN
    IF known <> p_dim THEN
      RAISE EXCEPTION 'embedding model % has dimension %, not %', p_model, known, p_dim
        USING ERRCODE = 'ZX010';
    END IF;
    RETURN idx;
  END IF;
  EXECUTE format(
    'CREATE INDEX IF NOT EXISTS %I ON embeddings USING hnsw ((embedding::halfvec(%s)) halfvec_cosine_ops) WITH (m = 32, ef_construction = 128) WHERE model = %L AND indexed',
    idx, p_dim, p_model);
  INSERT INTO embedding_models (model, dim, index_name) VALUES (p_model, p_dim, idx);
  RETURN idx;
END $$;

-- Projection lag per space: how many logged events the projections have not applied yet.
CREATE VIEW projection_status AS
SELECT s.space_id,
       s.head_seq,
       coalesce(w.projected_seq, 0) AS projected_seq,
       s.head_seq - coalesce(w.projected_seq, 0) AS lag,
       s.head_at,
       w.updated_at AS projected_at
FROM spaces s
LEFT JOIN projection_watermarks w USING (space_id);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON projection_watermarks, entities, mentions, facts,
      invalidations, memory_items, embeddings, vector_spaces TO zaxy_app;
    GRANT SELECT ON embedding_models, projection_status TO zaxy_app;
    GRANT EXECUTE ON FUNCTION zaxy_ensure_vector_index(text, integer) TO zaxy_app;
  END IF;
END $$;
