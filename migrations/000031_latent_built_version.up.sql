-- The producers' version that built a space's artifacts (latent.ProjectionVersion). A build by
-- producers of another version discards them and derives the space again from the log's start,
-- and the sweep enqueues one for every such space: an upgrade that changes how artifacts are
-- derived brings every space to the new derivation without `zaxy rebuild`. The spaces built
-- before this column were built by version 1.
ALTER TABLE latent_watermarks ADD COLUMN built_version integer NOT NULL DEFAULT 1;
ALTER TABLE latent_watermarks ALTER COLUMN built_version DROP DEFAULT;
