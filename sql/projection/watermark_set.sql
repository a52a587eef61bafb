-- Moves a space's watermark to the last applied event, in the projection's transaction.
UPDATE projection_watermarks
SET projected_seq = $2, projected_hash = $3, updated_at = clock_timestamp()
WHERE space_id = $1
