-- name: Docs :many
-- The documents a model is built from: the newest $2 event items of space $1, each with its
-- text search lexemes and their frequencies (positions; 1 for a stripped entry).
SELECT i.seq,
       array_agg(t.lexeme ORDER BY t.lexeme)::text[] AS lexemes,
       array_agg(coalesce(cardinality(t.positions), 1) ORDER BY t.lexeme)::int[] AS counts
FROM (
  SELECT seq, tsv FROM memory_items
  WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND kind = 'event'
  ORDER BY seq DESC
  LIMIT @max_docs
) i
CROSS JOIN LATERAL unnest(i.tsv) t
GROUP BY i.seq
ORDER BY i.seq;
