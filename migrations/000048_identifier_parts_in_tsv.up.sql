-- An identifier written in camel case is one token to Postgres's text search parser
-- ("TestRefundIdempotency" is the lexeme 'testrefundidempot', "parseConfig" 'parseconfig'), so a
-- question in words ("why did the refund idempotency test fail?", "where do we parse the
-- config?") shared no lexeme with the event that names it, and the keyword lane could not find
-- it; snake case was already split (the parser takes "_" for a blank). zaxy_path_tsv now also adds
-- the parts of every word with a case change inside it: a lower-case letter followed by a capital
-- ("parseConfig", "iPhone", "macOS"), or a run of capitals followed by a capitalised word of at
-- least two more letters ("HTTPServer", "XMLHttpRequest"; "URLs" and "APIs" stay whole). The
-- segments of paths and dotted names (000046) keep their lexemes and gain their parts the same
-- way (so the new tsv holds every lexeme of the old one). Items and the query's
-- lexemes keep agreeing: both are built with zaxy_path_tsv (docs/checkout.md, Keyword lane).
-- zaxy_identifier_parts is a text with a space put inside each case change of its words.
CREATE FUNCTION zaxy_identifier_parts(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT regexp_replace(regexp_replace(t, '([[:lower:]])([[:upper:]])', '\1 \2', 'g'),
                        '([[:upper:]])([[:upper:]][[:lower:]]{2})', '\1 \2', 'g')
$$;

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

-- The items already projected: their tsv again, and the term statistics by the difference (as
-- in 000046: the new tsv holds every lexeme of the old one).
CREATE TEMP TABLE zaxy_identifier_tsv_changed ON COMMIT DROP AS
SELECT i.space_id, i.item_id, i.tsv AS old_tsv, zaxy_tsv(i.ts_config, i.text) AS new_tsv
FROM memory_items i
WHERE i.text ~ '[[:lower:]][[:upper:]]|[[:upper:]][[:upper:]][[:lower:]]{2}';
DELETE FROM zaxy_identifier_tsv_changed WHERE new_tsv = old_tsv;

UPDATE memory_items i SET tsv = c.new_tsv
FROM zaxy_identifier_tsv_changed c
WHERE i.space_id = c.space_id AND i.item_id = c.item_id;

INSERT INTO term_stats AS s (space_id, lexeme, df)
SELECT c.space_id, l.lexeme, count(*)
FROM zaxy_identifier_tsv_changed c
CROSS JOIN LATERAL (SELECT lexeme FROM unnest(c.new_tsv) EXCEPT SELECT lexeme FROM unnest(c.old_tsv)) l
GROUP BY c.space_id, l.lexeme
ON CONFLICT (space_id, lexeme) DO UPDATE SET df = s.df + excluded.df;

UPDATE term_totals t SET tokens = t.tokens + d.tokens
FROM (SELECT space_id, sum(zaxy_tsv_length(new_tsv) - zaxy_tsv_length(old_tsv)) AS tokens
      FROM zaxy_identifier_tsv_changed GROUP BY space_id) d
WHERE t.space_id = d.space_id;
