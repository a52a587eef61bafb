-- Event types (by count) and sessions (most recent first) of space $1 from the log itself, in
-- one scan, bookkeeping events (checkout.*, zaxy.*) left out; at most $2 of each. groups counts
-- the types or sessions, events the events they hold.
WITH g AS (
  SELECT CASE WHEN grouping(e.type) = 0 THEN 'type' ELSE 'session' END AS kind,
         CASE WHEN grouping(e.type) = 0 THEN e.type ELSE e.session_id END AS name,
         count(*) AS n, min(e.seq) AS first_seq, max(e.seq) AS last_seq
  FROM events e
  WHERE e.space_id = $1 AND NOT starts_with(e.type, 'checkout.') AND NOT starts_with(e.type, 'zaxy.')
  GROUP BY GROUPING SETS ((e.type), (e.session_id))
), r AS (
  SELECT g.*,
         row_number() OVER (PARTITION BY g.kind
                            ORDER BY CASE g.kind WHEN 'type' THEN g.n ELSE g.last_seq END DESC, g.name) AS rank,
         count(*) OVER (PARTITION BY g.kind) AS groups,
         sum(g.n) OVER (PARTITION BY g.kind) AS events
  FROM g
  WHERE NOT (g.kind = 'session' AND g.name = '')
)
SELECT r.kind, r.name, r.n, r.first_seq, r.last_seq, r.groups, r.events
FROM r
WHERE r.rank <= $2
ORDER BY r.kind, r.rank
