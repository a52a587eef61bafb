-- Reverses 000019_latent_artifacts.up.sql. The latent labels of existing AGE graphs stay
-- (empty once the table is gone); a rebuild drops and recreates each graph without them.
DROP FUNCTION IF EXISTS zaxy_age_latent_sync(text);
DROP VIEW IF EXISTS memory.latent_artifacts;
DROP VIEW IF EXISTS latent_current;
DROP TABLE IF EXISTS latent_watermarks;
DROP TABLE IF EXISTS latent_artifacts;
