-- name: ErasurePending :one
-- Whether space @space_id has an erased event whose purge is pending (zaxy_erased_pending,
-- migration 000054): its AGE mirror may still hold what was derived from the erased text, so
-- Cypher is refused until the projector has purged it.
SELECT cardinality(zaxy_erased_pending(@space_id)) > 0 AS pending;
