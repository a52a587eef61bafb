-- The latest memory.confidence_revised of one artifact slot, by its key: a revision carries
-- the digest of the artifact's sources (data.artifact.sources_sha256), and applies to a later
-- artifact of the same slot and sources under another id, as a new producer version re-addresses
-- every artifact (zaxy_confidence_revision_seq, migration 000038; docs/latent.md). Built
-- concurrently, alone in its file, so a large log keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_confidence_revisions_by_slot
  ON events (space_id, ((data->'artifact'->>'key')), seq DESC) WHERE type = 'memory.confidence_revised';
