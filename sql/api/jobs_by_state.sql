-- name: JobsByState :many
-- River jobs by kind and state, for /metrics.
SELECT kind, state::text AS state, count(*) AS jobs FROM river_job GROUP BY kind, state ORDER BY kind, state;
