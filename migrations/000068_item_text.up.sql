-- Storage (docs/benchmarks.md, "memory_items"): a memory item no longer repeats its event's
-- content. An event item's text is, for messages and most events, the event's content
-- unchanged; such an item stores NULL and every reader takes coalesce(m.text, e.content),
-- joining events on its primary key (space_id, seq). Facts and the typed events whose text
-- adds to the content (projection/typed.go: retractions, invalidations, decisions, tool calls)
-- keep their text. The rows written before get NULL wherever the text equals the content,
-- which is what the projector now writes, so a rebuild gives the same rows.
--
-- The column is rewritten by ALTER COLUMN ... TYPE ... USING, which writes the table and its
-- indexes anew (packed, the old copy dropped at commit), under an ACCESS EXCLUSIVE lock on
-- memory_items: faster than an UPDATE of every row, which would leave the old rows and index
-- entries as dead space (docs/operations.md). The USING expression looks the content up
-- through a function, since it may not hold a subquery.
ALTER TABLE memory_items ALTER COLUMN text DROP NOT NULL;

CREATE FUNCTION zaxy_item_text_000068(space text, at bigint, t text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN t = (SELECT e.content FROM events e WHERE e.space_id = space AND e.seq = at) THEN NULL ELSE t END
$$;

ALTER TABLE memory_items ALTER COLUMN text TYPE text USING zaxy_item_text_000068(space_id, seq, text);

DROP FUNCTION zaxy_item_text_000068(text, bigint, text);

COMMENT ON COLUMN memory_items.text IS 'The item''s text when it is not its event''s content (facts, typed events); NULL means events.content of (space_id, seq): read coalesce(text, events.content).';
