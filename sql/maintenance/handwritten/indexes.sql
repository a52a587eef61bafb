-- The valid btree indexes of public tables the current user may MAINTAIN (River's tables
-- excluded), each with its size, the statistics its ideal size is estimated from and its
-- leaf fillfactor: the table's row estimate and the pages it was made on (pg_class.reltuples,
-- -1 before the first ANALYZE or VACUUM, and relpages) and its size now, whether the index is
-- partial, and per key column in order the type's length and alignment and the column's
-- average width from pg_stats (NULL when there is none: an expression column, whose
-- statistics only the owner reads, or a table never analyzed). needs_analyze: the table has
-- no row estimate, or a plain key column has no width.
SELECT i.oid::int8 AS oid,
       i.relname::text AS name,
       c.relname::text AS table_name,
       pg_relation_size(i.oid) AS bytes,
       c.reltuples::float8 AS table_tuples,
       c.relpages::int8 AS table_pages,
       pg_relation_size(c.oid) AS table_bytes,
       x.indpred IS NOT NULL AS partial,
       c.reltuples < 0 OR c.relpages = 0
         OR bool_or(x.indkey[k.n - 1] > 0 AND s.avg_width IS NULL) AS needs_analyze,
       coalesce((SELECT split_part(o, '=', 2)::int FROM unnest(i.reloptions) AS o
                 WHERE o LIKE 'fillfactor=%'), 90) AS fillfactor,
       array_agg(t.typlen::int ORDER BY k.n) AS typlens,
       array_agg(t.typalign::text ORDER BY k.n) AS typaligns,
       array_agg(s.avg_width ORDER BY k.n) AS widths
FROM pg_index x
JOIN pg_class i ON i.oid = x.indexrelid
JOIN pg_class c ON c.oid = x.indrelid
JOIN pg_am am ON am.oid = i.relam AND am.amname = 'btree'
CROSS JOIN LATERAL generate_series(1, x.indnkeyatts) AS k(n)
JOIN pg_attribute ia ON ia.attrelid = i.oid AND ia.attnum = k.n
JOIN pg_type t ON t.oid = ia.atttypid
LEFT JOIN pg_attribute ca ON ca.attrelid = c.oid AND ca.attnum = x.indkey[k.n - 1] AND x.indkey[k.n - 1] > 0
LEFT JOIN pg_stats s ON s.schemaname = 'public' AND s.tablename = c.relname AND s.attname = ca.attname AND NOT s.inherited
WHERE c.relnamespace = 'public'::regnamespace
  AND c.relkind = 'r'
  AND c.relname NOT LIKE 'river\_%'
  AND x.indisvalid AND x.indisready AND x.indislive
  AND has_table_privilege(c.oid, 'MAINTAIN')
GROUP BY i.oid, i.relname, c.oid, c.relname, c.reltuples, c.relpages, x.indpred, i.reloptions
ORDER BY pg_relation_size(i.oid) DESC, i.relname
