-- Second step of discarding: memory items, their term statistics and entities, once nothing
-- references them.
WITH i AS (DELETE FROM memory_items WHERE space_id = $1),
     s AS (DELETE FROM term_stats WHERE space_id = $1),
     t AS (DELETE FROM term_totals WHERE space_id = $1)
DELETE FROM entities WHERE space_id = $1
