CREATE OR REPLACE VIEW memory.events AS
SELECT e.space_id, e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.recorded_at,
       e.content, e.data, e.cues, encode(e.hash, 'hex') AS hash, encode(e.prev_hash, 'hex') AS prev_hash,
       (e.type LIKE 'checkout.%' OR e.type LIKE 'zaxy.%') AS bookkeeping,
       (SELECT string_agg(v.reason, '; ') FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq) AS invalidated
FROM events e;
