-- The memory actions (package memoryaction, docs/latent.md "Memory actions") read two kinds of
-- their own events straight from the log: the latest memory.confidence_revised of an artifact
-- (which the priors rank by) and the space's memory.known_unknown events. Both are rare next
-- to the rest of the log, so a partial index keeps the reads small; built concurrently, alone
-- in its file, so a large log keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_memory_actions
  ON events (space_id, type, seq DESC) WHERE type IN ('memory.confidence_revised', 'memory.known_unknown');
