-- Second step of discarding: memory items and entities, once nothing references them.
WITH i AS (DELETE FROM memory_items WHERE space_id = $1)
DELETE FROM entities WHERE space_id = $1
