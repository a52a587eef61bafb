-- name: CypherRunner :one
-- The AGE graph of a space and whether its Cypher runner (zaxy_cypher.<graph>, owned by the
-- graph's sandbox role; migration 000009) exists.
SELECT graph_name,
       (to_regprocedure(format('zaxy_cypher.%I(text, integer, integer, integer, bigint)', graph_name)) IS NOT NULL)::boolean AS has_runner
FROM age_graphs WHERE space_id = $1;
