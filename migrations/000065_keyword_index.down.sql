-- Back to 000064: term statistics keyed by the space's text id, and 000051's SQL tokenizing
-- functions (the same vectors).
ALTER TABLE term_stats RENAME TO term_stats_by_key;
ALTER TABLE term_stats_by_key RENAME CONSTRAINT term_stats_pkey TO term_stats_by_key_pkey;
CREATE TABLE term_stats (
  space_id text NOT NULL,
  lexeme   text NOT NULL,
  df       integer NOT NULL CONSTRAINT term_stats_df CHECK (df > 0)
);
INSERT INTO term_stats (space_id, lexeme, df)
SELECT s.space_id, t.lexeme, t.df
FROM term_stats_by_key t JOIN spaces s ON s.space_key = t.space_key
ORDER BY s.space_id, t.lexeme;
DROP TABLE term_stats_by_key;
ALTER TABLE term_stats ADD CONSTRAINT term_stats_pkey PRIMARY KEY (space_id, lexeme);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON term_stats TO zaxy_app;
  END IF;
END $$;

CREATE OR REPLACE FUNCTION zaxy_chunk_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN strpos(t, '/') = 0 AND t !~ '[[:alnum:]]\.[[:alpha:]]'
                   AND t !~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}' THEN to_tsvector(cfg, t)
              ELSE to_tsvector(cfg, t) || to_tsvector(cfg, coalesce((
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
                             AND p.token ~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}')) x), '')) END
$$;

CREATE OR REPLACE FUNCTION zaxy_path_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN length(t) <= 256 THEN zaxy_chunk_tsv(cfg, t) ELSE (
    SELECT zaxy_tsv_concat(g.v ORDER BY g.k)
    FROM (SELECT c.n / 64 AS k, zaxy_tsv_concat(zaxy_chunk_tsv(cfg, c.chunk) ORDER BY c.n) AS v
          FROM zaxy_tsv_chunks(t) c GROUP BY c.n / 64) g) END
$$;
