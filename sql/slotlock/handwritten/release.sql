-- Gives back the slots $2 of budget $1 that this session holds (take.sql), answering how many
-- it held.
SELECT count(*) FILTER (WHERE pg_advisory_unlock(hashtextextended('zaxy.budget:' || $1::text, s)))
FROM unnest($2::int[]) AS s
