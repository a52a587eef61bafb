DELETE FROM proposals WHERE kind IN ('feedback', 'confidence_revision');
ALTER TABLE proposals DROP CONSTRAINT proposals_kind;
ALTER TABLE proposals ADD CONSTRAINT proposals_kind CHECK (kind IN ('belief_update', 'skill', 'consolidation',
  'procedure_revision', 'failure_prior', 'known_unknown'));
