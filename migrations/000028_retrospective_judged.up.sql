-- The outcomes the retrospective pass has judged (retrospective.Assigner.Credit writes a row per
-- outcome.recorded event in the transaction that appends its feedback and proposals). The
-- retrospective_credit job is enqueued after the projection that applied the outcome commits, so
-- a worker stopping in between, or a job discarded after its retries, used to leave the outcome
-- never judged; the periodic sweep now enqueues the sessions of projected outcomes without a row
-- here (sql/retrospective/handwritten/pending_outcomes.sql). A judgement that appended nothing
-- (an outcome of unknown cause) is judged all the same, which the log alone could not tell.
CREATE TABLE retrospective_judged (
  space_id    text NOT NULL,
  outcome_seq bigint NOT NULL,
  session_id  text NOT NULL,
  judged_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, outcome_seq)
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON retrospective_judged TO zaxy_app;
  END IF;
END $$;
