-- Reverses 000021_latent_sources.up.sql.
DROP TRIGGER IF EXISTS latent_sources_insert ON latent_artifacts;
DROP TRIGGER IF EXISTS latent_sources_delete ON latent_artifacts;
DROP FUNCTION IF EXISTS zaxy_latent_sources_insert();
DROP FUNCTION IF EXISTS zaxy_latent_sources_delete();
DROP TABLE IF EXISTS latent_sources;
