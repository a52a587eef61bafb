-- name: IndexPredicates :many
-- The fact predicates of space @space_id by current facts, then versions, at most $2; total is the
-- number of predicates and current the number of current facts in the space. Facts recorded by
-- an erased event whose purge is pending (zaxy_erased_pending, migration 000054) are not counted.
SELECT f.predicate,
       count(*) FILTER (WHERE f.status = 'current') AS current_facts,
       count(*) AS versions,
       min(f.recorded_seq)::bigint AS first_seq, max(f.recorded_seq)::bigint AS last_seq,
       count(*) OVER () AS predicates,
       (sum(count(*) FILTER (WHERE f.status = 'current')) OVER ())::bigint AS facts
FROM facts f
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
GROUP BY f.predicate
ORDER BY current_facts DESC, versions DESC, f.predicate
LIMIT @max_rows;
