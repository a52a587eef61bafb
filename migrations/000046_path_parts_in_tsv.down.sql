-- Back to to_tsvector alone for the items whose tsv zaxy_tsv changed, and the term statistics
-- by the difference (the inverse of the up migration).
CREATE TEMP TABLE zaxy_tsv_changed ON COMMIT DROP AS
SELECT i.space_id, i.item_id, i.tsv AS old_tsv, to_tsvector(i.ts_config, i.text) AS new_tsv
FROM memory_items i
WHERE strpos(i.text, '/') > 0 OR i.text ~ '[[:alnum:]]\.[[:alpha:]]';
DELETE FROM zaxy_tsv_changed WHERE new_tsv = old_tsv;

UPDATE memory_items i SET tsv = c.new_tsv
FROM zaxy_tsv_changed c
WHERE i.space_id = c.space_id AND i.item_id = c.item_id;

CREATE TEMP TABLE zaxy_tsv_lost ON COMMIT DROP AS
SELECT c.space_id, l.lexeme, count(*) AS n
FROM zaxy_tsv_changed c
CROSS JOIN LATERAL (SELECT lexeme FROM unnest(c.old_tsv) EXCEPT SELECT lexeme FROM unnest(c.new_tsv)) l
GROUP BY c.space_id, l.lexeme;
DELETE FROM term_stats s USING zaxy_tsv_lost d
WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme AND s.df <= d.n;
UPDATE term_stats s SET df = s.df - d.n FROM zaxy_tsv_lost d
WHERE s.space_id = d.space_id AND s.lexeme = d.lexeme;

UPDATE term_totals t SET tokens = t.tokens + d.tokens
FROM (SELECT space_id, sum(zaxy_tsv_length(new_tsv) - zaxy_tsv_length(old_tsv)) AS tokens
      FROM zaxy_tsv_changed GROUP BY space_id) d
WHERE t.space_id = d.space_id;

DROP FUNCTION zaxy_tsv(regconfig, text);
DROP FUNCTION zaxy_path_tsv(regconfig, text);
