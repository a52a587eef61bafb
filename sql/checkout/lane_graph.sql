-- Graph lane: one hop from the seed entities ($2) over current facts, in both directions,
-- to the neighbours' own current facts (valid at $3). Walks the relational graph: AGE's
-- variable-length match is hundreds of times slower.
WITH nb AS (
  SELECT DISTINCT CASE WHEN f.subject_id = s.id THEN f.object_id ELSE f.subject_id END AS entity_id
  FROM unnest($2::text[]) AS s (id)
  JOIN facts f ON f.space_id = $1 AND f.status = 'current' AND f.object_id IS NOT NULL
              AND (f.subject_id = s.id OR f.object_id = s.id)
)
SELECT 'fact:' || f.fact_id AS item_id, nb.entity_id
FROM nb
JOIN facts f ON f.space_id = $1 AND f.subject_id = nb.entity_id
WHERE f.status <> 'invalidated' AND f.valid_from <= $3 AND (f.valid_to IS NULL OR f.valid_to > $3)
  AND NOT (nb.entity_id = ANY ($2::text[]))
ORDER BY f.recorded_seq DESC, f.fact_id
LIMIT $4
