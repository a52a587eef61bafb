-- name: ProspectivePriors :many
-- The current procedures, failures and causal links of a space, read precomputed for a
-- prospective pass (the partial index on current artifacts by type), most confident first,
-- at most @max_rows. Procedures are capped per space by their producer (docs/latent.md).
SELECT c.artifact_id, c.artifact_type, c.summary, c.source_event_refs::text AS source_event_refs,
       c.confidence, c.review_status, c.reasoning_phase, c.payload::text AS payload, c.contradicts,
       c.stale_reason, c.stale_seq
FROM latent_current c
WHERE c.space_id = @space_id AND c.artifact_type IN ('procedure', 'failure', 'causal')
ORDER BY c.confidence DESC, c.artifact_id
LIMIT @max_rows;
