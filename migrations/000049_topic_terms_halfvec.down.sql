ALTER TABLE latent_terms ALTER COLUMN vec TYPE vector USING vec::vector;
