-- How many spaces lag behind their log, the total lag and the worst space.
SELECT count(*) FILTER (WHERE lag > 0), coalesce(sum(lag), 0)::bigint,
       coalesce(max(lag), 0)::bigint,
       coalesce((array_agg(space_id ORDER BY lag DESC))[1], '')
FROM projection_status
