-- A path is one token to Postgres's text search parser ("cmd/deploy/push.go" is the lexeme
-- 'cmd/deploy/push.go'), and so is a dotted name ("os.Getenv", "config.yaml", the parser's
-- "host" tokens), so a question naming the file ("what changed in push.go?"), a directory ("the
-- internal/store tests") or a part of the name ("where do we call Getenv?") shared no lexeme
-- with the event that gives the whole, and the keyword lane could not find it. zaxy_path_tsv is
-- to_tsvector plus the segments of those tokens, after the text's own lexemes: a "file" token
-- that holds a "/" split there (the parser also calls "e.g" a file), a "host" token split at its
-- dots: 'cmd', 'deploy' and 'push.go' besides 'cmd/deploy/push.go', 'event' and 'meet' besides
-- 'event/meeting', 'os' and 'getenv' besides 'os.getenv'. The projector builds memory items' tsv
-- with it (through zaxy_tsv, below) and checkout builds its query's lexemes with it, so both
-- sides agree (docs/checkout.md, Keyword lane). A text with no "/" and no dot between a letter
-- or digit and a letter is to_tsvector's alone, parsed once.
CREATE FUNCTION zaxy_path_tsv(cfg regconfig, t text) RETURNS tsvector
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN strpos(t, '/') = 0 AND t !~ '[[:alnum:]]\.[[:alpha:]]' THEN to_tsvector(cfg, t)
              ELSE to_tsvector(cfg, t) || to_tsvector(cfg, coalesce((
                SELECT string_agg(CASE y.alias WHEN 'file' THEN replace(p.token, '/', ' ') ELSE replace(p.token, '.', ' ') END, ' ' ORDER BY n)
                FROM ts_parse((SELECT c.cfgparser FROM pg_ts_config c WHERE c.oid = cfg), t) WITH ORDINALITY AS p(tokid, token, n)
                JOIN ts_token_type((SELECT c.cfgparser FROM pg_ts_config c WHERE c.oid = cfg)) y ON y.tokid = p.tokid
                WHERE (y.alias = 'file' AND strpos(p.token, '/') > 0) OR y.alias = 'host'), '')) END
$$;

-- zaxy_tsv is zaxy_path_tsv made never to fail, for the items: a tsvector holds at most 1 MB of
-- lexemes, and a text of many distinct words (an agent's long tool output; a request body may be 1 MiB, and
-- the path segments about double a path's lexemes) would make to_tsvector fail and stall the
-- space's projection. A text of more than 128 KiB that does not fit is indexed on its longest
-- prefix that does, found by cutting it to three quarters until it fits; the item keeps its whole
-- text. Shorter texts cannot reach the limit (their lexemes, segments and hyphenated parts are at
-- most about three times their bytes) and never enter the exception block. The exception block
-- makes it parallel unsafe; a query (at most 4,000 characters) calls zaxy_path_tsv.
CREATE FUNCTION zaxy_tsv(cfg regconfig, t text) RETURNS tsvector
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

-- The items already projected: their tsv again, and the term statistics by the difference (the
-- new tsv holds every lexeme of the old one, so document frequencies only grow, by the lexemes
-- an item gains; lengths grow by the segments' tokens).
CREATE TEMP TABLE zaxy_tsv_changed ON COMMIT DROP AS
SELECT i.space_id, i.item_id, i.tsv AS old_tsv, zaxy_tsv(i.ts_config, i.text) AS new_tsv
FROM memory_items i
WHERE strpos(i.text, '/') > 0 OR i.text ~ '[[:alnum:]]\.[[:alpha:]]';
DELETE FROM zaxy_tsv_changed WHERE new_tsv = old_tsv;

UPDATE memory_items i SET tsv = c.new_tsv
FROM zaxy_tsv_changed c
WHERE i.space_id = c.space_id AND i.item_id = c.item_id;

INSERT INTO term_stats AS s (space_id, lexeme, df)
SELECT c.space_id, l.lexeme, count(*)
FROM zaxy_tsv_changed c
CROSS JOIN LATERAL (SELECT lexeme FROM unnest(c.new_tsv) EXCEPT SELECT lexeme FROM unnest(c.old_tsv)) l
GROUP BY c.space_id, l.lexeme
ON CONFLICT (space_id, lexeme) DO UPDATE SET df = s.df + excluded.df;

UPDATE term_totals t SET tokens = t.tokens + d.tokens
FROM (SELECT space_id, sum(zaxy_tsv_length(new_tsv) - zaxy_tsv_length(old_tsv)) AS tokens
      FROM zaxy_tsv_changed GROUP BY space_id) d
WHERE t.space_id = d.space_id;
