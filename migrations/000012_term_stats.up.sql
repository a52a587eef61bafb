-- Term statistics for BM25 in the keyword lane (docs/checkout.md, docs/projections.md).
--
-- A memory item's length is the number of token positions in its tsvector: the words the
-- text search configuration kept (stop words are dropped but still advance positions, so
-- they do not count). A lexeme's term frequency in an item is the number of its positions.
-- Postgres keeps at most 256 positions per lexeme, so both saturate alike on very long texts.

-- The length of a tsvector in tokens: the sum over its lexemes of their positions (a lexeme
-- stored without positions counts once).
CREATE FUNCTION zaxy_tsv_length(tsv tsvector) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)::integer FROM unnest(tsv) u
$$;

-- Every item's length, derived from its tsvector so the two cannot disagree. Adding the column
-- computes it for the items already projected.
ALTER TABLE memory_items ADD COLUMN tsv_len integer GENERATED ALWAYS AS (zaxy_tsv_length(tsv)) STORED;

-- Document frequency per lexeme and space: how many of the space's memory items contain it.
-- Written only by the projector, which holds the space's watermark lock, in the statement that
-- inserts the items (sql/projection/items_insert.sql); discarded and replayed by a rebuild.
CREATE TABLE term_stats (
  space_id text NOT NULL,
  lexeme   text NOT NULL,
  df       integer NOT NULL CONSTRAINT term_stats_df CHECK (df > 0),
  PRIMARY KEY (space_id, lexeme)
);

-- Per space: how many memory items there are and their summed length (average = tokens/items).
CREATE TABLE term_totals (
  space_id text PRIMARY KEY,
  items    bigint NOT NULL CONSTRAINT term_totals_items CHECK (items >= 0),
  tokens   bigint NOT NULL CONSTRAINT term_totals_tokens CHECK (tokens >= 0)
);

-- The statistics of the items already projected.
INSERT INTO term_stats (space_id, lexeme, df)
SELECT i.space_id, u.lexeme, count(*)
FROM memory_items i, unnest(i.tsv) u
GROUP BY i.space_id, u.lexeme;

INSERT INTO term_totals (space_id, items, tokens)
SELECT space_id, count(*), sum(tsv_len) FROM memory_items GROUP BY space_id;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON term_stats, term_totals TO zaxy_app;
  END IF;
END $$;
