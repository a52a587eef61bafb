-- name: VectorHNSWSettings :exec
-- Settings for one HNSW search, local to its transaction: the candidate list size (@ef_search) and
-- iterative scans, so filters on the index scan still yield the rows asked for.
SELECT set_config('hnsw.ef_search', @ef_search::text, true), set_config('hnsw.iterative_scan', 'relaxed_order', true);
