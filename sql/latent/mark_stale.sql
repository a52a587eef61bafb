-- name: MarkStale :many
-- Marks the current artifacts citing @target_seq stale, returning their slots. A superseded
-- preference also stops holding then (valid_to).
UPDATE latent_artifacts
SET stale_at = @stale_at::timestamptz, stale_seq = @stale_seq::bigint, stale_reason = @stale_reason::text,
    valid_to = CASE WHEN artifact_type = 'preference' THEN coalesce(valid_to, @stale_at::timestamptz) ELSE valid_to END
WHERE space_id = @space_id AND stale_at IS NULL AND source_seqs @> ARRAY[@target_seq::bigint]
RETURNING slot, artifact_type;
