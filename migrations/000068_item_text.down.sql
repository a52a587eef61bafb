UPDATE memory_items m SET text = e.content
FROM events e
WHERE e.space_id = m.space_id AND e.seq = m.seq AND m.text IS NULL;

COMMENT ON COLUMN memory_items.text IS NULL;

ALTER TABLE memory_items ALTER COLUMN text SET NOT NULL;
