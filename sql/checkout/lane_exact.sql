-- Exact lane: entities named in the query ($2: candidate keys and ids) and the items about
-- them: their current facts (valid at $3) and the latest events mentioning them, that had
-- occurred by $3. Returns item ids with the matched entity, best first.
WITH hit AS (
  SELECT entity_id, key FROM entities
  WHERE space_id = $1 AND (key = ANY ($2::text[]) OR entity_id = ANY ($2::text[]))
), fact_items AS (
  SELECT 'fact:' || f.fact_id AS item_id, h.entity_id, f.recorded_seq AS seq, 0 AS pri
  FROM hit h
  JOIN facts f ON f.space_id = $1 AND (f.subject_id = h.entity_id OR f.object_id = h.entity_id)
  WHERE f.status <> 'invalidated' AND f.valid_from <= $3 AND (f.valid_to IS NULL OR f.valid_to > $3)
), mention_items AS (
  SELECT DISTINCT ON (m.seq) 'ev:' || m.seq AS item_id, m.entity_id, m.seq, 1 AS pri
  FROM hit h
  JOIN mentions m ON m.space_id = $1 AND m.entity_id = h.entity_id
  JOIN memory_items i ON i.space_id = $1 AND i.item_id = 'ev:' || m.seq AND i.occurred_at <= $3
  ORDER BY m.seq DESC
  LIMIT $4
)
SELECT item_id, entity_id FROM (
  SELECT * FROM fact_items UNION ALL SELECT * FROM mention_items
) x
ORDER BY pri, seq DESC, item_id
LIMIT $4
