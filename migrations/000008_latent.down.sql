-- Reverses 000008_latent.up.sql.
DROP TABLE IF EXISTS latent_topics;
DROP TABLE IF EXISTS latent_terms;
DROP TABLE IF EXISTS latent_models;
