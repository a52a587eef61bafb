-- Proposals and review (docs/projections.md, "Proposals and review"): a proposal.created event
-- puts a change to memory up for review, proposal.accepted/rejected/deferred decide it. The
-- proposals table is a projection of those events, written by the projector in its
-- transaction, discarded and rebuilt with the others and covered by the checksum.

-- Review states a fact can be in: besides unreviewed, accepted and rejected, a current fact
-- contested by an open proposal is conflicted; proposed and deferred describe inferred
-- statements (view inferred_facts) and are allowed here so one vocabulary serves both.
ALTER TABLE facts DROP CONSTRAINT facts_review_status;
ALTER TABLE facts ADD CONSTRAINT facts_review_status
  CHECK (review_status IN ('unreviewed', 'proposed', 'accepted', 'rejected', 'deferred', 'conflicted'));

CREATE TABLE proposals (
  space_id    text NOT NULL,
  -- seq and hash of the proposal.created event: the proposal's id and citation.
  seq         bigint NOT NULL,
  hash        bytea NOT NULL,
  kind        text NOT NULL CONSTRAINT proposals_kind CHECK (kind IN ('belief_update', 'skill', 'consolidation')),
  status      text NOT NULL DEFAULT 'pending'
              CONSTRAINT proposals_status CHECK (status IN ('pending', 'accepted', 'rejected', 'deferred')),
  proposed_by text NOT NULL,
  proposed_at timestamptz NOT NULL,
  confidence  real CONSTRAINT proposals_confidence CHECK (confidence BETWEEN 0 AND 1),
  -- The cited events, [{seq, hash}], earlier than the proposal.
  evidence    jsonb NOT NULL CONSTRAINT proposals_evidence_array CHECK (jsonb_typeof(evidence) = 'array'),
  -- A belief_update's proposed fact, as fact.asserted data.
  fact        jsonb,
  -- The current fact the proposal would replace (interference detection), labelled
  -- conflicted while the proposal is open.
  contradicts text,
  -- The inferred statement the proposal comes from (inferred_facts seq, model, ordinal).
  inference_seq     bigint,
  inference_model   text,
  inference_ordinal integer,
  rationale   text NOT NULL DEFAULT '',
  -- The last decision: its event, who (actor) and when (occurred_at), and why.
  decided_seq bigint,
  decided_by  text,
  decided_at  timestamptz,
  reason      text,
  -- The fact version asserted by accepting a belief_update.
  fact_id     text,
  PRIMARY KEY (space_id, seq),
  CONSTRAINT proposals_decided CHECK ((status = 'pending') = (decided_seq IS NULL))
);

CREATE INDEX proposals_status ON proposals (space_id, status, seq);
CREATE INDEX proposals_contradicts ON proposals (space_id, contradicts) WHERE contradicts IS NOT NULL;
CREATE INDEX proposals_inference ON proposals (space_id, inference_seq) WHERE inference_seq IS NOT NULL;

-- Inferred statements now carry the review status of the newest proposal made from them:
-- conflicted while a proposal that contradicts a fact is open, proposed while another is
-- pending, otherwise the proposal's status; unreviewed when there is none.
CREATE OR REPLACE VIEW inferred_facts AS
SELECT i.space_id, i.seq, i.hash, i.model, t.ord::int AS ordinal,
       t.triple->>'subject' AS subject, t.triple->>'predicate' AS predicate,
       t.triple->>'object' AS object, (t.triple->>'confidence')::real AS confidence,
       'inferred'::text AS authority,
       CASE WHEN p.status IS NULL THEN 'unreviewed'
            WHEN p.status IN ('pending', 'deferred') AND p.contradicts IS NOT NULL THEN 'conflicted'
            WHEN p.status = 'pending' THEN 'proposed'
            ELSE p.status END AS review_status,
       true AS inferred
FROM inferences i
CROSS JOIN LATERAL jsonb_array_elements(i.triples) WITH ORDINALITY AS t (triple, ord)
LEFT JOIN LATERAL (
  SELECT x.status, x.contradicts FROM proposals x
  WHERE x.space_id = i.space_id AND x.inference_seq = i.seq AND x.inference_model = i.model
    AND x.inference_ordinal = t.ord
  ORDER BY x.seq DESC LIMIT 1
) p ON true;

-- Open proposals (pending or deferred) for analysts, oldest first, with the text of the
-- events they cite.
CREATE VIEW memory.review_queue AS
SELECT p.space_id, p.seq AS proposal_seq, p.kind, p.status, p.proposed_by, p.proposed_at, p.confidence,
       CASE WHEN p.fact IS NOT NULL THEN concat_ws(' ', p.fact->>'subject', p.fact->>'predicate',
                                               coalesce(p.fact->>'object', p.fact->'value' #>> '{}')) END AS proposed,
       p.contradicts, p.rationale,
       ARRAY(SELECT (x->>'seq')::bigint FROM jsonb_array_elements(p.evidence) x ORDER BY (x->>'seq')::bigint) AS evidence_seqs,
       (SELECT string_agg(e.content, E'\n' ORDER BY e.seq)
        FROM events e
        WHERE e.space_id = p.space_id
          AND e.seq IN (SELECT (x->>'seq')::bigint FROM jsonb_array_elements(p.evidence) x)) AS evidence_text
FROM proposals p
WHERE p.status IN ('pending', 'deferred');

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON proposals TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.review_queue TO zaxy_analyst;
  END IF;
END $$;
