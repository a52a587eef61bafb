-- One event's full-text work is bounded and linear in its text, so that one write cannot hold
-- its space's projection (docs/security.md, "One write cannot freeze a space"). Postgres's
-- default text search parser tries to read a host, a path, a URL or an XML comment from every
-- token that may start one, and goes back when the text ends first: "ghp_" × 225,000 (900 KB)
-- took minutes in to_tsvector, because from each "ghp" it read the rest of the run as a host;
-- "./" repeated reads a path to the end, "<!-- " a comment across blanks. The parser's work on
-- a text grows with the square of the longest such run.
--
-- zaxy_path_tsv now parses a text of more than 256 characters in chunks of at most 256: the text
-- is cut every 128 characters and each cut moved forward to the first blank after it (a piece's
-- leading run goes to the chunk before), so a word shorter than 128 characters is never cut and
-- a longer run is cut every 128 characters. Each chunk is parsed alone (zaxy_chunk_tsv, the body
-- 000048 gave zaxy_path_tsv) and the chunks' vectors are joined in order (positions continue, as
-- tsvector || does). A text of at most 256 characters, and so every query of most checkouts, is
-- parsed whole as before. zaxy_tsv indexes an item's first 65,536 characters (the item keeps its
-- whole text), parsed once: at most 256 KiB, whose lexemes and segments stay far under a
-- tsvector's 1 MB; should a text still not fit, its first 16,384 characters are indexed.
CREATE FUNCTION zaxy_chunk_tsv(cfg regconfig, t text) RETURNS tsvector
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

-- zaxy_tsv_chunks is t in chunks, in order: t cut every 128 characters ('.' also matches a line
-- break), each piece's leading run of non-blanks moved to the chunk before. One pass of a regular
-- expression that is linear in t, and an anchored one per piece.
CREATE FUNCTION zaxy_tsv_chunks(t text) RETURNS TABLE (n bigint, chunk text)
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT p.n, CASE WHEN p.n = 1 THEN p.piece ELSE substr(p.piece, length(p.head) + 1) END
              || coalesce(lead(p.head) OVER (ORDER BY p.n), '')
  FROM (SELECT r.n, r.m[1] AS piece, substring(r.m[1] FROM '^[^[:space:]]*') AS head
        FROM regexp_matches(t, '.{1,128}', 'g') WITH ORDINALITY AS r(m, n)) p
$$;

-- zaxy_tsv_concat joins vectors in the aggregate's order, as || does.
CREATE AGGREGATE zaxy_tsv_concat(tsvector) (SFUNC = tsvector_concat, STYPE = tsvector, INITCOND = '');

-- Chunks are joined in groups of 64 and the groups then, so the joining copies each lexeme a
-- bounded number of times.
CREATE OR REPLACE FUNCTION zaxy_path_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN length(t) <= 256 THEN zaxy_chunk_tsv(cfg, t) ELSE (
    SELECT zaxy_tsv_concat(g.v ORDER BY g.k)
    FROM (SELECT c.n / 64 AS k, zaxy_tsv_concat(zaxy_chunk_tsv(cfg, c.chunk) ORDER BY c.n) AS v
          FROM zaxy_tsv_chunks(t) c GROUP BY c.n / 64) g) END
$$;

CREATE OR REPLACE FUNCTION zaxy_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE plpgsql STABLE STRICT PARALLEL UNSAFE AS $$
BEGIN
  RETURN zaxy_path_tsv(cfg, left(t, 65536));
EXCEPTION WHEN program_limit_exceeded THEN
  RETURN zaxy_path_tsv(cfg, left(t, 16384));
END
$$;

-- The items already projected whose text is longer than 256 characters: their tsv again, and the
-- term statistics by the difference (lexemes may be lost as well as gained: past the first
-- 65,536 characters, and where a run of more than 128 characters is cut).
CREATE TEMP TABLE zaxy_bounded_tsv_changed ON COMMIT DROP AS
SELECT i.space_id, i.item_id, i.tsv AS old_tsv, zaxy_tsv(i.ts_config, i.text) AS new_tsv
FROM memory_items i
WHERE length(i.text) > 256;
DELETE FROM zaxy_bounded_tsv_changed WHERE new_tsv = old_tsv;

UPDATE memory_items i SET tsv = c.new_tsv
FROM zaxy_bounded_tsv_changed c
WHERE i.space_id = c.space_id AND i.item_id = c.item_id;

CREATE TEMP TABLE zaxy_bounded_tsv_df (space_id text, lexeme text, n bigint) ON COMMIT DROP;
INSERT INTO zaxy_bounded_tsv_df (space_id, lexeme, n)
SELECT d.space_id, d.lexeme, sum(d.n)
FROM (SELECT c.space_id, l.lexeme, 1 AS n
      FROM zaxy_bounded_tsv_changed c
      CROSS JOIN LATERAL (SELECT lexeme FROM unnest(c.new_tsv) EXCEPT SELECT lexeme FROM unnest(c.old_tsv)) l
      UNION ALL
      SELECT c.space_id, l.lexeme, -1
      FROM zaxy_bounded_tsv_changed c
      CROSS JOIN LATERAL (SELECT lexeme FROM unnest(c.old_tsv) EXCEPT SELECT lexeme FROM unnest(c.new_tsv)) l) d
GROUP BY d.space_id, d.lexeme
HAVING sum(d.n) <> 0;

DELETE FROM term_stats s USING zaxy_bounded_tsv_df d
WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme AND s.df + d.n <= 0;
UPDATE term_stats s SET df = s.df + d.n FROM zaxy_bounded_tsv_df d
WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme;
INSERT INTO term_stats (space_id, lexeme, df)
SELECT d.space_id, d.lexeme, d.n FROM zaxy_bounded_tsv_df d
WHERE d.n > 0 AND NOT EXISTS (SELECT 1 FROM term_stats s WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme);

UPDATE term_totals t SET tokens = t.tokens + d.tokens
FROM (SELECT space_id, sum(zaxy_tsv_length(new_tsv) - zaxy_tsv_length(old_tsv)) AS tokens
      FROM zaxy_bounded_tsv_changed GROUP BY space_id) d
WHERE t.space_id = d.space_id;
