-- Inserts a batch's memory items with their full-text vectors, built with the configured
-- text search configuration ($2), and adds them to the space's term statistics (document
-- frequency per lexeme, item count and summed length) in the same statement: one write per
-- batch, under the watermark lock the projector holds for the space. $10 is each item's
-- redundant_of (the encoding gate's tag; NULL for every ranked item).
WITH ins AS (
  INSERT INTO memory_items (space_id, item_id, kind, seq, event_type, session_id, occurred_at, text,
                            ts_config, tsv, redundant_of)
  SELECT $1, u.item_id, u.kind, u.seq, u.event_type, u.session_id, u.occurred_at, u.text,
         $2::regconfig, zaxy_tsv($2::regconfig, u.text), u.redundant_of
  FROM unnest($3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::timestamptz[], $9::text[], $10::text[])
       AS u (item_id, kind, seq, event_type, session_id, occurred_at, text, redundant_of)
  RETURNING tsv, tsv_len
), df AS (
  INSERT INTO term_stats AS s (space_id, lexeme, df)
  SELECT $1, l.lexeme, count(*)
  FROM ins, unnest(ins.tsv) l
  GROUP BY l.lexeme
  ORDER BY l.lexeme
  ON CONFLICT (space_id, lexeme) DO UPDATE SET df = s.df + excluded.df
)
INSERT INTO term_totals AS t (space_id, items, tokens)
SELECT $1, count(*), coalesce(sum(tsv_len), 0) FROM ins
ON CONFLICT (space_id) DO UPDATE SET items = t.items + excluded.items, tokens = t.tokens + excluded.tokens
