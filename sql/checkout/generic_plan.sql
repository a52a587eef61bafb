-- name: GenericPlan :exec
-- Plans the statements that follow in the same transaction (a pipelined batch is one) with a
-- generic plan, cached per connection, instead of a custom plan per call. For a query whose
-- parameters are long arrays (the exact lane's candidate keys), estimating each element
-- against the column statistics costs more than running it (measured: about 1.8 ms to plan,
-- 2 ms to run, docs/benchmarks.md); its results do not depend on the plan.
SELECT set_config('plan_cache_mode', 'force_generic_plan', true);
