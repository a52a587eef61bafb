-- Runs a filtered Cypher query through a graph's runner (%s is zaxy_cypher.<graph>, quoted):
-- $1 the query, $2 columns, $3 max rows, $4 max bytes of one value, $5 max bytes in all.
SELECT v FROM %s($1, $2, $3, $4, $5) AS v
