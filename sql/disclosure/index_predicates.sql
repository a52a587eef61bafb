-- The fact predicates of space $1 by current facts, then versions, at most $2; total is the
-- number of predicates and current the number of current facts in the space.
SELECT f.predicate,
       count(*) FILTER (WHERE f.status = 'current') AS current_facts,
       count(*) AS versions,
       min(f.recorded_seq), max(f.recorded_seq),
       count(*) OVER (),
       sum(count(*) FILTER (WHERE f.status = 'current')) OVER ()
FROM facts f
WHERE f.space_id = $1
GROUP BY f.predicate
ORDER BY current_facts DESC, versions DESC, f.predicate
LIMIT $2
