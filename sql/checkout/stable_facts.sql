-- name: StableFacts :many
-- The stable tier's candidates: asserted facts valid at @as_of, the most confirmed first, then in
-- canonical order, so repeated checkouts start with the same bytes.
SELECT ('fact:' || f.fact_id)::text AS item_id
FROM facts f
JOIN entities s ON s.space_id = f.space_id AND s.entity_id = f.subject_id
WHERE f.space_id = @space_id AND f.status = 'current' AND NOT f.inferred AND f.authority = 'asserted'
  AND f.valid_from <= @as_of AND (f.valid_to IS NULL OR f.valid_to > @as_of)
ORDER BY jsonb_array_length(f.evidence) DESC, s.name, f.predicate, f.fact_id
LIMIT @max_rows;
