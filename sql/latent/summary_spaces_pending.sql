-- name: SummarySpacesPending :many
-- Spaces with a current episode without a summary by @model (the sweep enqueues
-- episode_summarize for them).
SELECT DISTINCT a.space_id
FROM latent_current a
WHERE a.artifact_type = 'episode'
  AND NOT EXISTS (SELECT FROM latent_llm_summaries s WHERE s.space_id = a.space_id AND s.artifact_id = a.artifact_id AND s.model = @model)
ORDER BY a.space_id
LIMIT @max_spaces;
