-- The session's events that are memory, not bookkeeping: what the recent lane replays (newest
-- first) and the reply lane walks (the next message after a question). Every checkout appends a
-- checkout.surfaced event to its session, so in a long agent session those outnumber the
-- session's own events, and walking events_session past them cost the recent lane a heap visit
-- per record and the reply lane up to 25 ms for a question late in such a session
-- (docs/benchmarks.md). The predicate is the lanes' own, written the same way so the planner
-- proves it. Built concurrently, alone in its file.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_session_memory
  ON events (space_id, session_id, seq)
  WHERE session_id <> '' AND type NOT LIKE 'checkout.%' AND type NOT LIKE 'zaxy.%';
