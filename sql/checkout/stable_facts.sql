-- name: StableFacts :many
-- The stable tier's candidates: asserted facts valid at @as_of, the most confirmed first, then in
-- canonical order, so repeated checkouts start with the same bytes. With @omit_tool_state the
-- tools' state the projector derives from tool calls (last_outcome, last_error) is left out: it
-- changes with every call and is confirmed by every call, so the most confirmed facts of an
-- agent's space would be its busiest tools' last outcomes, whatever the question; the query tier
-- still ranks them. A fact recorded by an erased event whose purge is pending
-- (zaxy_erased_pending, migration 000054) is left out.
SELECT ('fact:' || f.fact_id)::text AS item_id
FROM facts f
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.status = 'current' AND NOT f.inferred AND f.authority = 'asserted'
  AND f.valid_from <= @as_of AND (f.valid_to IS NULL OR f.valid_to > @as_of)
  AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
  AND NOT (@omit_tool_state::boolean AND 'tool' = ANY (s.kinds) AND f.predicate IN ('last_outcome', 'last_error'))
ORDER BY jsonb_array_length(f.evidence) DESC, s.name, f.predicate, f.fact_id
LIMIT @max_rows;
