DROP INDEX IF EXISTS latent_artifacts_type;
DROP INDEX IF EXISTS latent_artifacts_slot_bytes;
