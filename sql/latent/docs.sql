-- The documents a model is built from: the newest $2 event items of space $1, each with its
-- text search lexemes and their frequencies (positions; 1 for a stripped entry).
SELECT i.seq,
       array_agg(t.lexeme ORDER BY t.lexeme),
       array_agg(coalesce(cardinality(t.positions), 1) ORDER BY t.lexeme)
FROM (
  SELECT seq, tsv FROM memory_items
  WHERE space_id = $1 AND kind = 'event'
  ORDER BY seq DESC
  LIMIT $2
) i
CROSS JOIN LATERAL unnest(i.tsv) t
GROUP BY i.seq
ORDER BY i.seq
