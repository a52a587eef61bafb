-- Keyword lane: full-text match of any of the query's lexemes ($2, text search configuration
-- $3), candidates capped at 1000 before ranking (ranking, not matching, is the cost), ranked
-- by ts_rank with length normalization so long items do not win by size.
WITH q AS (
  SELECT CASE WHEN numnode(plainto_tsquery($3::regconfig, $2)) = 0 THEN NULL
              ELSE replace(plainto_tsquery($3::regconfig, $2)::text, ' & ', ' | ')::tsquery END AS tsq
), cand AS (
  SELECT i.item_id, i.tsv
  FROM memory_items i, q
  WHERE i.space_id = $1 AND i.tsv @@ q.tsq AND i.occurred_at <= $4
  LIMIT 1000
)
SELECT c.item_id, ts_rank(c.tsv, q.tsq, 1) AS score
FROM cand c, q
ORDER BY score DESC, c.item_id
LIMIT $5
