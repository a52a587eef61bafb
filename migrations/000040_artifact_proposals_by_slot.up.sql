-- The latent build's proposals by artifact slot (proposal.created data.artifact.key): each build
-- asks which of its current procedures, failures and causal links were proposed before
-- (sql/latent/proposed_slots.sql), and without an index that question read the whole events
-- table, every space's, on every build. Built concurrently, alone in its file, so a large log
-- keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_artifact_proposals
  ON events (space_id, ((data->'artifact'->>'key'))) WHERE type = 'proposal.created' AND data ? 'artifact';
