-- Gives back slots this session holds (take.sql): slot $2[i] of budget $1[i], answering how
-- many it held.
SELECT count(*) FILTER (WHERE pg_advisory_unlock(hashtextextended('zaxy.budget:' || b, s)))
FROM unnest($1::text[], $2::int[]) AS r(b, s)
