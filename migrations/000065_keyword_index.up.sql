-- The keyword index's storage and the keyword lane's speed (docs/benchmarks.md, "Keyword index:
-- term statistics by space key, tokenizing in PL/pgSQL").
--
-- zaxy_chunk_tsv and zaxy_path_tsv are PL/pgSQL with 000051's expressions, unchanged. As SQL
-- functions with subqueries they could not be inlined, so every statement that called them
-- planned their bodies again (about 1 ms a call on two busy cores: the keyword lane's, the topic
-- lane's and the metamemory state's reading of the question, and every projected item);
-- PL/pgSQL keeps its plans for the session and takes the short branch without planning the long
-- one. Their result is the same vector for every text.
CREATE OR REPLACE FUNCTION zaxy_chunk_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF strpos(t, '/') = 0 AND t !~ '[[:alnum:]]\.[[:alpha:]]'
     AND t !~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}' THEN
    RETURN to_tsvector(cfg, t);
  END IF;
  RETURN to_tsvector(cfg, t) || to_tsvector(cfg, coalesce((
    SELECT string_agg(CASE WHEN NOT x.segmented THEN x.seg
                           WHEN x.seg ~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}'
                           THEN x.seg || ' ' || zaxy_identifier_parts(x.seg) ELSE x.seg END, ' ' ORDER BY x.n)
    FROM (SELECT p.n, y.alias IN ('file', 'host') AS segmented,
                 CASE y.alias WHEN 'file' THEN replace(p.token, '/', ' ') WHEN 'host' THEN replace(p.token, '.', ' ')
                              ELSE zaxy_identifier_parts(p.token) END AS seg
          FROM ts_parse((SELECT c.cfgparser FROM pg_ts_config c WHERE c.oid = cfg), t) WITH ORDINALITY AS p(tokid, token, n)
          JOIN ts_token_type((SELECT c.cfgparser FROM pg_ts_config c WHERE c.oid = cfg)) y ON y.tokid = p.tokid
          WHERE (y.alias = 'file' AND strpos(p.token, '/') > 0) OR y.alias = 'host'
             OR (y.alias IN ('asciiword', 'word', 'numword', 'hword_asciipart', 'hword_part', 'hword_numpart')
                 AND p.token ~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}')) x), ''));
END
$$;

CREATE OR REPLACE FUNCTION zaxy_path_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF length(t) <= 256 THEN
    RETURN zaxy_chunk_tsv(cfg, t);
  END IF;
  RETURN (SELECT zaxy_tsv_concat(g.v ORDER BY g.k)
          FROM (SELECT c.n / 64 AS k, zaxy_tsv_concat(zaxy_chunk_tsv(cfg, c.chunk) ORDER BY c.n) AS v
                FROM zaxy_tsv_chunks(t) c GROUP BY c.n / 64) g);
END
$$;

-- Term statistics keyed by the space's 4-byte key (migration 000064) instead of its text id,
-- which every row and primary-key entry repeated. The table is copied in key order and its
-- primary key built once, so the index starts dense; the rows of a space with no row in spaces
-- (there are none: a space's first event creates it) would be left behind.
ALTER TABLE term_stats RENAME TO term_stats_by_id;
ALTER TABLE term_stats_by_id RENAME CONSTRAINT term_stats_pkey TO term_stats_by_id_pkey;
CREATE TABLE term_stats (
  space_key int4 NOT NULL,
  lexeme    text NOT NULL,
  df        integer NOT NULL CONSTRAINT term_stats_df CHECK (df > 0)
);
INSERT INTO term_stats (space_key, lexeme, df)
SELECT s.space_key, t.lexeme, t.df
FROM term_stats_by_id t JOIN spaces s ON s.space_id = t.space_id
ORDER BY s.space_key, t.lexeme;
DROP TABLE term_stats_by_id;
ALTER TABLE term_stats ADD CONSTRAINT term_stats_pkey PRIMARY KEY (space_key, lexeme);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON term_stats TO zaxy_app;
  END IF;
END $$;
