-- name: Jobs :many
-- River jobs that need an operator: discarded after their retries, retrying now, and running
-- for longer than 15 minutes (stuck), with the latest error of each kind ('' when none).
SELECT kind, state::text AS state, count(*) AS jobs,
       coalesce((array_agg(errors[array_length(errors, 1)]->>'error' ORDER BY id DESC))[1], '')::text AS last_error
FROM river_job
WHERE state IN ('discarded', 'retryable')
   OR (state = 'running' AND attempted_at < now() - interval '15 minutes')
GROUP BY kind, state
ORDER BY kind, state;
