ALTER TABLE latent_watermarks ALTER COLUMN built_version DROP DEFAULT;
