-- The retrospective pass (issue 16 point 5, docs/latent.md) proposes three more kinds of
-- change: procedure_revision, failure_prior and known_unknown (an outcome whose cause the trace
-- does not tell). Like skill and consolidation, accepting one records the decision only.
ALTER TABLE proposals DROP CONSTRAINT proposals_kind;
ALTER TABLE proposals ADD CONSTRAINT proposals_kind CHECK (kind IN ('belief_update', 'skill', 'consolidation',
  'procedure_revision', 'failure_prior', 'known_unknown'));
