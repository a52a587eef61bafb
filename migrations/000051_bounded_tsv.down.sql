-- Back to 000048's zaxy_path_tsv (one parse of the whole text) and 000046's zaxy_tsv (a text
-- of more than 128 KiB that does not fit cut to three quarters until it does) for the items
-- longer than 256 characters, and the term statistics by the difference (as the up migration).
CREATE OR REPLACE FUNCTION zaxy_path_tsv(cfg regconfig, t text) RETURNS tsvector
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

CREATE OR REPLACE FUNCTION zaxy_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE plpgsql STABLE STRICT PARALLEL UNSAFE AS $$
DECLARE
  n integer := length(t);
BEGIN
  IF octet_length(t) <= 131072 THEN
    RETURN zaxy_path_tsv(cfg, t);
  END IF;
  LOOP
    BEGIN
      RETURN zaxy_path_tsv(cfg, left(t, n));
    EXCEPTION WHEN program_limit_exceeded THEN
      n := n * 3 / 4;
    END;
  END LOOP;
END
$$;

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

DROP FUNCTION zaxy_tsv_chunks(text);
DROP AGGREGATE zaxy_tsv_concat(tsvector);
DROP FUNCTION zaxy_chunk_tsv(regconfig, text);
