-- name: DiscardItems :exec
-- Second step of discarding: memory items, their term statistics and entities, once nothing
-- references them.
WITH i AS (DELETE FROM memory_items x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)),
     s AS (DELETE FROM term_stats x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)),
     t AS (DELETE FROM term_totals x WHERE x.space_id = @space_id)
DELETE FROM entities x WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id);
