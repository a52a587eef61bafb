-- The latest redaction.configured event of a space, read by every append that found a secret
-- (sql/eventloom/redaction_mode.sql). Almost no row matches, so the index stays tiny; built
-- concurrently, alone in its file, so a large log keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_redaction_configured
  ON events (space_id, seq DESC) WHERE type = 'redaction.configured';
