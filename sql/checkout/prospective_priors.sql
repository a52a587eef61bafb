-- name: ProspectivePriors :many
-- The current procedures, failures and causal links of a space (latent_current), read
-- precomputed for a prospective pass through the partial index on current artifacts by type,
-- most confident (as produced) first, at most @max_rows, with the text the pass matches the
-- goal against (summary and payload) and the confidence they are ranked by: the latest
-- confidence revision that applies to the artifact (revise_confidence, or the retrospective
-- pass; zaxy_confidence_revision_seq, migration 000038), else the producer's. Their sources are read with WeaveVerify for the picks only.
-- An artifact citing an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is left out: its text was derived from the erased one.
SELECT c.artifact_id, c.artifact_type, c.summary, c.payload::text AS payload, c.confidence AS produced_confidence,
       coalesce(r.confidence, c.confidence::float8)::float8 AS confidence
FROM (
  SELECT c.artifact_id, c.slot, c.source_seqs, c.artifact_type, c.summary, c.payload, c.confidence
  FROM latent_current c
  WHERE c.space_id = @space_id AND c.artifact_type IN ('procedure', 'failure', 'causal')
    AND NOT (c.source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
  ORDER BY c.confidence DESC, c.artifact_id
  LIMIT @max_rows
) c
LEFT JOIN LATERAL (
  SELECT (e.data->>'confidence')::float8 AS confidence, e.seq, e.hash
  FROM events e
  WHERE e.space_id = @space_id AND e.seq = zaxy_confidence_revision_seq(@space_id, c.artifact_id, c.slot, c.source_seqs)
) r ON true
ORDER BY c.confidence DESC, c.artifact_id;
