-- Checkout's item fetch (sql/checkout/handwritten/fetch_events.sql) asks, for each event it
-- reads, how many later items the encoding gate found repeating it and which was the last one
-- (docs/checkout.md, "Redundant items"). The partial index of 000026 is keyed by the copy; this
-- one by the item a copy repeats and then the copy's seq, so the last copy is one probe from
-- the end and the count reads only that item's copies (most items have none). Built
-- concurrently, alone in its file.
CREATE INDEX CONCURRENTLY IF NOT EXISTS memory_items_repeats
  ON memory_items (space_id, redundant_of, seq) INCLUDE (occurred_at) WHERE redundant_of IS NOT NULL;
