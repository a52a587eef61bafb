-- name: ArtifactsCiting :many
-- A space's current artifacts of the given types that cite any of seqs (GIN index
-- latent_artifacts_sources), in id order.
-- An artifact citing an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is left out: its text was derived from the erased one.
SELECT artifact_id, slot, artifact_type, summary, source_event_refs::text AS source_event_refs, source_seqs,
       confidence, review_status, authority_status, purpose_profile, reasoning_phase,
       coalesce(payload, 'null')::text AS payload
FROM latent_current
WHERE space_id = @space_id AND artifact_type = ANY (@types::text[]) AND source_seqs && @seqs::bigint[]
  AND NOT (source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY artifact_id;
