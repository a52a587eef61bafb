-- A worker of a release before 000031 (producers' version 1) still running while a new one is
-- deployed writes latent_watermarks without built_version: the default says what built its
-- artifacts, and the new workers' next build of that space derives it again (docs/latent.md).
-- Without it such a build failed on the NOT NULL constraint.
ALTER TABLE latent_watermarks ALTER COLUMN built_version SET DEFAULT 1;
