-- name: VectorExactSettings :exec
-- Settings for one exact vector scan, local to its transaction: no index may stand in for the
-- scan (the exact path is the ground truth).
SELECT set_config('enable_indexscan', 'off', true);
