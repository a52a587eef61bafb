-- name: IndexEntities :many
-- The most mentioned and most connected entities of space @space_id (mentions plus current facts with
-- the entity as subject or object), invalidated ones last, at most $2; total counts them all.
WITH degree AS (
  SELECT d.id, count(*) AS facts
  FROM (
    SELECT f.subject_id AS id FROM facts f WHERE f.space_id = @space_id AND f.status = 'current'
    UNION ALL
    SELECT f.object_id FROM facts f WHERE f.space_id = @space_id AND f.status = 'current' AND f.object_id IS NOT NULL
  ) d
  GROUP BY d.id
)
SELECT e.entity_id, e.name, e.mentions, coalesce(d.facts, 0)::bigint AS facts, e.first_seq, e.last_seq,
       (e.invalidated_seq IS NOT NULL)::boolean AS invalidated, count(*) OVER () AS total
FROM entities e
LEFT JOIN degree d ON d.id = e.entity_id
WHERE e.space_id = @space_id
ORDER BY e.invalidated_seq IS NOT NULL, e.mentions + coalesce(d.facts, 0) DESC, e.mentions DESC, e.key, e.entity_id
LIMIT @max_rows;
