-- LLM-assisted episode summaries (docs/latent.md, "LLM-assisted summaries"): optional, written by
-- the episode_summarize job only when an LLM is configured (ZAXY_LLM_URL). A model's output
-- cannot be derived again from the log, so this is a cache, not memory: it is never part of an
-- artifact's content or address, the projection checksum leaves it out, and it goes with its
-- artifact (a replaced episode, a rebuild, an erasure's purge) through the foreign key; the job
-- then summarizes the current episodes again.
CREATE TABLE latent_llm_summaries (
  space_id    text NOT NULL,
  artifact_id text NOT NULL,
  model       text NOT NULL CONSTRAINT latent_llm_summaries_model CHECK (model ~ '^[^@\s]+@[^@\s]*$'),
  summary     text NOT NULL CONSTRAINT latent_llm_summaries_summary CHECK (btrim(summary) <> '' AND length(summary) <= 2000),
  created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, artifact_id, model),
  FOREIGN KEY (space_id, artifact_id) REFERENCES latent_artifacts (space_id, artifact_id) ON DELETE CASCADE
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, DELETE ON latent_llm_summaries TO zaxy_app;
  END IF;
END $$;
