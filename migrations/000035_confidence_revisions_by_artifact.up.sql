-- The latest memory.confidence_revised of one artifact, by its id: the prospective pass reads
-- it for each prior it considers (docs/checkout.md, "The weave_memory action and the
-- prospective pass"), and the retrospective pass for each artifact it revises. The partial
-- index of 000023 (space_id, type, seq) finds a space's revisions, not one artifact's; once the
-- retrospective pass revises artifacts after every judged outcome, a space holds many. Built
-- concurrently, alone in its file, so a large log keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_confidence_revisions
  ON events (space_id, ((data->'artifact'->>'id')), seq DESC) WHERE type = 'memory.confidence_revised';
