-- Checkout's item fetch (sql/checkout/handwritten/fetch_events.sql) asks, for each of the ~150
-- events it reads, which ranked item the encoding gate found it repeats. Few items are
-- redundant, so a partial index over those only answers each probe from a few pages, instead
-- of a heap visit per event through memory_items' primary key (1.1 ms of a 2.4 ms fetch at
-- 100,000 items, docs/benchmarks.md). Built concurrently, alone in its file.
CREATE INDEX CONCURRENTLY IF NOT EXISTS memory_items_redundant
  ON memory_items (space_id, item_id) INCLUDE (redundant_of) WHERE redundant_of IS NOT NULL;
