-- A space's erasures (erasure.recorded): every latent build reads them all (sql/latent/
-- stalings.sql: an erased event is no source), and without an index that read the whole events
-- table of every space (21 ms at 108,000 events without a single erasure). Built concurrently,
-- alone in its file, so a large log keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_erasures
  ON events (space_id, seq) WHERE type = 'erasure.recorded';
