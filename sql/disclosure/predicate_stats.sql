-- name: PredicateStats :one
-- How many fact versions with predicate $2 space $1 holds (current ones and all), and the seq
-- range that recorded them, those recorded by an erased event whose purge is pending
-- (zaxy_erased_pending, migration 000054) left out.
SELECT count(*) FILTER (WHERE f.status = 'current') AS current_facts, count(*) AS total,
       coalesce(min(f.recorded_seq), 0)::bigint AS first_seq, coalesce(max(f.recorded_seq), 0)::bigint AS last_seq
FROM facts f
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.predicate = @predicate AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[]);
