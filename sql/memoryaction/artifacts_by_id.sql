-- name: ArtifactsByID :many
-- A space's artifacts by id, current or stale (the far ends of a causal neighbourhood's
-- relations), in id order, with when and why a stale one went stale.
-- An artifact citing an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is left out: its text was derived from the erased one.
SELECT artifact_id, slot, artifact_type, summary, confidence, stale_reason
FROM latent_artifacts
WHERE space_id = @space_id AND artifact_id = ANY (@ids::text[])
  AND NOT (source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY artifact_id;
