-- name: IndexEntities :many
-- The most mentioned and most connected entities of space @space_id (mentions plus current facts with
-- the entity as subject or object), invalidated ones last, at most $2; total counts them all.
-- Nothing derived from an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054): an entity it named first, a fact it recorded.
WITH pend AS (
  SELECT (SELECT zaxy_erased_pending(@space_id))::bigint[] AS seqs
), degree AS (
  SELECT d.id, count(*) AS facts
  FROM (
    SELECT f.subject_id AS id FROM facts f, pend WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.status = 'current' AND f.recorded_seq <> ALL (pend.seqs)
    UNION ALL
    SELECT f.object_id FROM facts f, pend
    WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.status = 'current' AND f.object_id IS NOT NULL AND f.recorded_seq <> ALL (pend.seqs)
  ) d
  GROUP BY d.id
)
SELECT e.entity_id, e.name, e.mentions, coalesce(d.facts, 0)::bigint AS facts, e.first_seq, e.last_seq,
       (e.invalidated_seq IS NOT NULL)::boolean AS invalidated, count(*) OVER () AS total
FROM entities e
CROSS JOIN pend
LEFT JOIN degree d ON d.id = e.entity_id
WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND e.first_seq <> ALL (pend.seqs)
ORDER BY e.invalidated_seq IS NOT NULL, e.mentions + coalesce(d.facts, 0) DESC, e.mentions DESC, e.key, e.entity_id
LIMIT @max_rows;
