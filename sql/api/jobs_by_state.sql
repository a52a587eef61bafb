-- River jobs by kind and state, for /metrics.
SELECT kind, state::text, count(*) FROM river_job GROUP BY kind, state ORDER BY kind, state
