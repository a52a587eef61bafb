-- Discards a space's projections (speaker names included) and resets its watermark.
-- Embeddings stay until embed_prune: a vector whose item comes back with the same text is
-- still right. The caller holds the watermark lock.
WITH m AS (DELETE FROM mentions WHERE space_id = $1),
     f AS (DELETE FROM facts WHERE space_id = $1),
     i AS (DELETE FROM invalidations WHERE space_id = $1),
     s AS (DELETE FROM speaker_names WHERE space_id = $1)
UPDATE projection_watermarks SET projected_seq = 0, projected_hash = NULL, updated_at = clock_timestamp()
WHERE space_id = $1
