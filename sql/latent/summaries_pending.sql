-- name: SummariesPending :many
-- Up to @max_rows current episodes of the space without a summary by @model, oldest slot
-- first, with the ids of the events they cite.
SELECT a.artifact_id, a.slot, a.source_seqs
FROM latent_current a
WHERE a.space_id = @space_id AND a.artifact_type = 'episode'
  AND NOT EXISTS (SELECT FROM latent_llm_summaries s WHERE s.space_id = a.space_id AND s.artifact_id = a.artifact_id AND s.model = @model)
ORDER BY a.slot, a.artifact_id
LIMIT @max_rows;
