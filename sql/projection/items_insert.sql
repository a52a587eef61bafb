-- name: ItemsInsert :exec
-- Inserts a batch's memory items with their full-text vectors, built with the configured
-- text search configuration (ts_config), and adds them to the space's term statistics
-- (document frequency per lexeme, under the space's key in spaces; item count and summed
-- length) in the same statement: one write per batch, under the watermark lock the projector
-- holds for the space. Each array is one column of the items, all of one length. redundant_ofs
-- is each item's redundant_of (the encoding gate's tag), the empty string for NULL (every
-- ranked item; item ids are never empty). is_contents says which texts are their event's
-- content: those are stored as NULL (the text is read as coalesce(text, events.content)), and
-- only the texts an item makes of its event (facts, typed events) are kept.
WITH u AS (
  SELECT unnest(@item_ids::text[]) AS item_id,
         unnest(@kinds::text[]) AS kind,
         unnest(@seqs::bigint[]) AS seq,
         unnest(@event_types::text[]) AS event_type,
         unnest(@session_ids::text[]) AS session_id,
         unnest(@occurred_ats::timestamptz[]) AS occurred_at,
         unnest(@texts::text[]) AS text,
         unnest(@is_contents::boolean[]) AS is_content,
         unnest(@redundant_ofs::text[]) AS redundant_of
), ins AS (
  INSERT INTO memory_items (space_key, item_id, kind, seq, event_type, session_id, occurred_at, text,
                            ts_config, tsv, redundant_of)
  SELECT (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text), u.item_id, u.kind, u.seq, u.event_type, u.session_id, u.occurred_at,
         CASE WHEN NOT u.is_content THEN u.text END,
         @ts_config::regconfig, zaxy_tsv(@ts_config::regconfig, u.text), nullif(u.redundant_of, '')
  FROM u
  RETURNING tsv, tsv_len
), df AS (
  INSERT INTO term_stats AS s (space_key, lexeme, df)
  SELECT (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text), l.lexeme, count(*)
  FROM ins, unnest(ins.tsv) l
  GROUP BY l.lexeme
  ORDER BY l.lexeme
  ON CONFLICT (space_key, lexeme) DO UPDATE SET df = s.df + excluded.df
)
INSERT INTO term_totals AS t (space_id, items, tokens)
SELECT @space_id::text, count(*), coalesce(sum(tsv_len), 0) FROM ins
ON CONFLICT (space_id) DO UPDATE SET items = t.items + excluded.items, tokens = t.tokens + excluded.tokens;
