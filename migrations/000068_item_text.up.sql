-- Storage (docs/benchmarks.md, "memory_items"): a memory item no longer repeats its event's
-- content. An event item's text is, for messages and most events, the event's content
-- unchanged; such an item stores NULL and every reader takes coalesce(m.text, e.content),
-- joining events on its primary key (space_id, seq). Facts and the typed events whose text
-- adds to the content (projection/typed.go: retractions, invalidations, decisions, tool calls)
-- keep their text. The rows written before are rewritten in place: NULL wherever the text
-- equals the content, which is what the projector now writes, so a rebuild gives the same rows.
-- The space the old texts held is reused by later writes; VACUUM FULL memory_items returns it
-- to the operating system (docs/operations.md).
ALTER TABLE memory_items ALTER COLUMN text DROP NOT NULL;

UPDATE memory_items m SET text = NULL
FROM events e
WHERE e.space_id = m.space_id AND e.seq = m.seq AND m.text = e.content;

COMMENT ON COLUMN memory_items.text IS 'The item''s text when it is not its event''s content (facts, typed events); NULL means events.content of (space_id, seq): read coalesce(text, events.content).';
