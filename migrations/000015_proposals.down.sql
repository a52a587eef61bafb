-- Reverses 000015_proposals.up.sql.
DROP VIEW IF EXISTS memory.review_queue;
CREATE OR REPLACE VIEW inferred_facts AS
SELECT i.space_id, i.seq, i.hash, i.model, t.ord::int AS ordinal,
       t.triple->>'subject' AS subject, t.triple->>'predicate' AS predicate,
       t.triple->>'object' AS object, (t.triple->>'confidence')::real AS confidence,
       'inferred'::text AS authority, 'unreviewed'::text AS review_status, true AS inferred
FROM inferences i
CROSS JOIN LATERAL jsonb_array_elements(i.triples) WITH ORDINALITY AS t (triple, ord);
DROP TABLE IF EXISTS proposals;
UPDATE facts SET review_status = 'unreviewed' WHERE review_status NOT IN ('unreviewed', 'accepted', 'rejected');
ALTER TABLE facts DROP CONSTRAINT facts_review_status;
ALTER TABLE facts ADD CONSTRAINT facts_review_status CHECK (review_status IN ('unreviewed', 'accepted', 'rejected'));
