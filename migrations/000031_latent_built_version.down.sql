ALTER TABLE latent_watermarks DROP COLUMN IF EXISTS built_version;
