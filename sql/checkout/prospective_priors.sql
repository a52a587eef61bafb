-- name: ProspectivePriors :many
-- The current procedures, failures and causal links of a space (latent_current), read
-- precomputed for a prospective pass through the partial index on current artifacts by type,
-- most confident first, at most @max_rows, with the text the pass matches the goal against
-- (summary and payload); their sources are read with WeaveVerify for the picks only.
SELECT c.artifact_id, c.artifact_type, c.summary, c.payload::text AS payload, c.confidence
FROM latent_current c
WHERE c.space_id = @space_id AND c.artifact_type IN ('procedure', 'failure', 'causal')
ORDER BY c.confidence DESC, c.artifact_id
LIMIT @max_rows;
