-- What a latent build replaces (sql/latent/slot_state.sql): the artifacts of the slots starting
-- with a derivation's prefixes (a session's episodes and causal links, the space-wide causal
-- links) and those of the space-wide producers' types. The query matched the slots with
-- LIKE ANY and an OR, which no index serves, so every build read all of the space's artifacts
-- (5 ms at 5,000, 74 ms cold). Slots are now found by byte range per prefix (slot COLLATE "C":
-- a prefix's slots are one range whatever the database's collation) and by type, each through
-- an index of its own. latent_artifacts is a projection the build writes: a short lock here.
CREATE INDEX latent_artifacts_slot_bytes ON latent_artifacts (space_id, (slot COLLATE "C"));
CREATE INDEX latent_artifacts_type ON latent_artifacts (space_id, artifact_type);
