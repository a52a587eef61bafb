-- The outcome.recorded events, for the sweep's look for outcomes not judged yet (000028): a few
-- rows among the log's many. Built concurrently, alone in its file.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_outcomes ON events (space_id, seq) WHERE type = 'outcome.recorded';
