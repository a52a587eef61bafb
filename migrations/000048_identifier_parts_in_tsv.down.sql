-- Back to 000046's zaxy_path_tsv (paths and dotted names split, identifiers whole) for the items
-- whose tsv 000048 changed, and the term statistics by the difference (the inverse of the up
-- migration). A down migration restores the function's earlier body whole.
CREATE OR REPLACE FUNCTION zaxy_path_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN strpos(t, '/') = 0 AND t !~ '[[:alnum:]]\.[[:alpha:]]' THEN to_tsvector(cfg, t)
              ELSE to_tsvector(cfg, t) || to_tsvector(cfg, coalesce((
                SELECT string_agg(CASE y.alias WHEN 'file' THEN replace(p.token, '/', ' ') ELSE replace(p.token, '.', ' ') END, ' ' ORDER BY n)
                FROM ts_parse((SELECT c.cfgparser FROM pg_ts_config c WHERE c.oid = cfg), t) WITH ORDINALITY AS p(tokid, token, n)
                JOIN ts_token_type((SELECT c.cfgparser FROM pg_ts_config c WHERE c.oid = cfg)) y ON y.tokid = p.tokid
                WHERE (y.alias = 'file' AND strpos(p.token, '/') > 0) OR y.alias = 'host'), '')) END
$$;

CREATE TEMP TABLE zaxy_identifier_tsv_changed ON COMMIT DROP AS
SELECT i.space_id, i.item_id, i.tsv AS old_tsv, zaxy_tsv(i.ts_config, i.text) AS new_tsv
FROM memory_items i
WHERE i.text ~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}';
DELETE FROM zaxy_identifier_tsv_changed WHERE new_tsv = old_tsv;

UPDATE memory_items i SET tsv = c.new_tsv
FROM zaxy_identifier_tsv_changed c
WHERE i.space_id = c.space_id AND i.item_id = c.item_id;

CREATE TEMP TABLE zaxy_identifier_tsv_lost ON COMMIT DROP AS
SELECT c.space_id, l.lexeme, count(*) AS n
FROM zaxy_identifier_tsv_changed c
CROSS JOIN LATERAL (SELECT lexeme FROM unnest(c.old_tsv) EXCEPT SELECT lexeme FROM unnest(c.new_tsv)) l
GROUP BY c.space_id, l.lexeme;
DELETE FROM term_stats s USING zaxy_identifier_tsv_lost d
WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme AND s.df <= d.n;
UPDATE term_stats s SET df = s.df - d.n FROM zaxy_identifier_tsv_lost d
WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme;

UPDATE term_totals t SET tokens = t.tokens + d.tokens
FROM (SELECT space_id, sum(zaxy_tsv_length(new_tsv) - zaxy_tsv_length(old_tsv)) AS tokens
      FROM zaxy_identifier_tsv_changed GROUP BY space_id) d
WHERE t.space_id = d.space_id;

DROP FUNCTION zaxy_identifier_parts(text);
