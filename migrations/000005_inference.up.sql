-- Model-inferred statements: what the optional LLM-assisted extractor proposed for an event's
-- text, one row per (event, model). They are labelled inferred, never authoritative, never
-- supersede or close asserted facts, and are kept across rebuilds (a model's answer for an
-- unchanged, immutable event is a cache worth keeping). docs/extraction.md.
CREATE TABLE inferences (
  space_id   text NOT NULL,
  seq        bigint NOT NULL,
  model      text NOT NULL,
  hash       bytea NOT NULL,
  triples    jsonb NOT NULL CONSTRAINT inferences_triples_array CHECK (jsonb_typeof(triples) = 'array'),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (space_id, seq, model),
  FOREIGN KEY (space_id, seq) REFERENCES events (space_id, seq)
);

-- One row per inferred statement, with its labels and citation.
CREATE VIEW inferred_facts AS
SELECT i.space_id, i.seq, i.hash, i.model, t.ord::int AS ordinal,
       t.triple->>'subject' AS subject, t.triple->>'predicate' AS predicate,
       t.triple->>'object' AS object, (t.triple->>'confidence')::real AS confidence,
       'inferred'::text AS authority, 'unreviewed'::text AS review_status, true AS inferred
FROM inferences i
CROSS JOIN LATERAL jsonb_array_elements(i.triples) WITH ORDINALITY AS t (triple, ord);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, DELETE ON inferences TO zaxy_app;
    GRANT SELECT ON inferred_facts TO zaxy_app;
  END IF;
END $$;
