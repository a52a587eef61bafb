-- name: Lag :one
-- How many spaces lag behind their log, the total lag and the worst space.
SELECT count(*) FILTER (WHERE lag > 0) AS lagging_spaces, coalesce(sum(lag), 0)::bigint AS total_lag,
       coalesce(max(lag), 0)::bigint AS max_lag,
       coalesce((array_agg(space_id ORDER BY lag DESC))[1], '')::text AS worst_space
FROM projection_status;
