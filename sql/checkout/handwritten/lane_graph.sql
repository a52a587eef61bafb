-- Graph lane: one hop from the seed entities ($2, with their specificities $5 from the exact
-- lane) over current facts, in both directions, to the neighbours' own current facts (valid
-- at $3). Each item carries the specificity of the most specific seed that reached it, and
-- ranks by it first. Walks the relational graph: AGE's variable-length match is hundreds of
-- times slower. Facts recorded by an erased event whose purge is pending (zaxy_erased_pending,
-- migration 000054) are no edges and no items.
WITH nb AS (
  SELECT CASE WHEN f.subject_id = s.id THEN f.object_id ELSE f.subject_id END AS entity_id, max(s.spec) AS spec
  FROM unnest($2::text[], $5::float8[]) AS s (id, spec)
  JOIN facts f ON f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.status = 'current' AND f.object_id IS NOT NULL
              AND (f.subject_id = s.id OR f.object_id = s.id) AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  GROUP BY 1
)
SELECT 'fact:' || f.fact_id AS item_id, nb.entity_id, nb.spec
FROM nb
JOIN facts f ON f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.subject_id = nb.entity_id
WHERE f.status <> 'invalidated' AND f.valid_from <= $3 AND (f.valid_to IS NULL OR f.valid_to > $3)
  AND NOT (nb.entity_id = ANY ($2::text[]))
  AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
ORDER BY nb.spec DESC, f.recorded_seq DESC, f.fact_id
LIMIT $4
