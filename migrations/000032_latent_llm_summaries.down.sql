DROP TABLE IF EXISTS latent_llm_summaries;
