-- name: SummariesOf :many
-- The LLM-assisted summaries of the given artifacts of the space, by model.
SELECT artifact_id, model, summary, created_at
FROM latent_llm_summaries
WHERE space_id = @space_id AND artifact_id = ANY(@ids::text[])
ORDER BY artifact_id, model;
