-- name: SummaryInsert :execrows
-- Stores an episode's summary by a model, if the episode is still current (it may have been
-- replaced while the model was asked) and none is stored yet.
INSERT INTO latent_llm_summaries (space_id, artifact_id, model, summary)
SELECT @space_id, @artifact_id, @model, @summary
WHERE EXISTS (SELECT FROM latent_current a WHERE a.space_id = @space_id AND a.artifact_id = @artifact_id)
ON CONFLICT DO NOTHING;
