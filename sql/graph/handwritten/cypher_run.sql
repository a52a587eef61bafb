-- Runs a filtered Cypher query through a graph's runner, zaxy_cypher.<graph> (quoted and
-- formatted in by graph.Cypher, the one verb below, through sql.QueryIdent): $1 the query,
-- $2 columns, $3 max rows, $4 max bytes of one value, $5 max bytes in all.
SELECT v FROM {{ident}}($1, $2, $3, $4, $5) AS v
