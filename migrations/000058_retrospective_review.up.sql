-- The retrospective pass proposes its feedback and confidence revisions for review unless the
-- space applies them at once (retrospective.configured; docs/latent.md, "Review of the pass's
-- judgements"): two more kinds of proposal, whose acceptance appends the event they propose.
ALTER TABLE proposals DROP CONSTRAINT proposals_kind;
ALTER TABLE proposals ADD CONSTRAINT proposals_kind CHECK (kind IN ('belief_update', 'skill', 'consolidation',
  'procedure_revision', 'failure_prior', 'known_unknown', 'feedback', 'confidence_revision'));
