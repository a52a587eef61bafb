-- memory.events' bookkeeping flag also marks the records the reading memory actions append
-- (memory_action.surfaced, docs/events.md), as it marks checkout's checkout.surfaced: Zaxy's
-- own record of what it answered, not something that happened in the work. The columns are
-- unchanged (the analysts' views only ever add columns).
CREATE OR REPLACE VIEW memory.events AS
SELECT e.space_id, e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.recorded_at,
       e.content, e.data, e.cues, encode(e.hash, 'hex') AS hash, encode(e.prev_hash, 'hex') AS prev_hash,
       (e.type LIKE 'checkout.%' OR e.type LIKE 'zaxy.%' OR e.type = 'memory_action.surfaced') AS bookkeeping,
       (SELECT string_agg(v.reason, '; ') FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq) AS invalidated
FROM events e;
