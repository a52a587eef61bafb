-- Discards a space's projections (embeddings go with their memory items) and resets its
-- watermark. The caller holds the watermark lock.
WITH m AS (DELETE FROM mentions WHERE space_id = $1),
     f AS (DELETE FROM facts WHERE space_id = $1),
     i AS (DELETE FROM invalidations WHERE space_id = $1),
     e AS (DELETE FROM embeddings WHERE space_id = $1)
UPDATE projection_watermarks SET projected_seq = 0, projected_hash = NULL, updated_at = clock_timestamp()
WHERE space_id = $1
