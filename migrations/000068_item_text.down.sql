CREATE FUNCTION zaxy_item_text_000068(space text, at bigint, t text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT coalesce(t, (SELECT e.content FROM events e WHERE e.space_id = space AND e.seq = at))
$$;

ALTER TABLE memory_items ALTER COLUMN text TYPE text USING zaxy_item_text_000068(space_id, seq, text);

DROP FUNCTION zaxy_item_text_000068(text, bigint, text);

COMMENT ON COLUMN memory_items.text IS NULL;

ALTER TABLE memory_items ALTER COLUMN text SET NOT NULL;
