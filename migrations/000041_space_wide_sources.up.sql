-- The events the latent build's space-wide producers read (tool calls, preferences, decisions,
-- outcomes: latent.globalTypes, sql/latent/events_read.sql). Each build after such an event
-- read the whole space for them (25 ms at 108,000 events in a space with ten tool calls); now
-- it reads them alone. Built concurrently, alone in its file, so a large log keeps taking
-- appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_space_wide_sources
  ON events (space_id, seq)
  WHERE type IN ('tool_call.completed', 'preference.stated', 'decision.recorded', 'outcome.recorded');
