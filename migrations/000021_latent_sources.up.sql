-- Which artifacts cite which event, one row per (space, seq, artifact): the lookup a memory
-- weave starts from (docs/checkout.md, "Memory weave"). latent_artifacts' GIN index on
-- source_seqs cannot do it well: seqs are per space, so the same seq is cited in every space,
-- and the planner estimates an overlap with n seqs at 1-(1-0.005)^n of the table and walks
-- the space's artifacts instead (measured at 12,000 artifacts: 20-50 ms; by this btree, about
-- 1 ms). It is kept by triggers in the same transaction as latent_artifacts: a function of
-- that table, so neither projection checksum nor rebuild needs to know about it.

CREATE TABLE latent_sources (
  space_id    text NOT NULL,
  seq         bigint NOT NULL,
  artifact_id text NOT NULL,
  PRIMARY KEY (space_id, seq, artifact_id)
);

CREATE FUNCTION zaxy_latent_sources_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO latent_sources (space_id, seq, artifact_id)
  SELECT DISTINCT n.space_id, s.seq, n.artifact_id FROM new_rows n CROSS JOIN unnest(n.source_seqs) s (seq)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION zaxy_latent_sources_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM latent_sources l USING (SELECT o.space_id, s.seq, o.artifact_id FROM old_rows o CROSS JOIN unnest(o.source_seqs) s (seq)) d
  WHERE l.space_id = d.space_id AND l.seq = d.seq AND l.artifact_id = d.artifact_id;
  RETURN NULL;
END $$;

-- An artifact's sources are part of its content address: an upsert never changes them, so
-- inserts and deletes are all there is to follow.
CREATE TRIGGER latent_sources_insert AFTER INSERT ON latent_artifacts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION zaxy_latent_sources_insert();
CREATE TRIGGER latent_sources_delete AFTER DELETE ON latent_artifacts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION zaxy_latent_sources_delete();

INSERT INTO latent_sources (space_id, seq, artifact_id)
SELECT DISTINCT a.space_id, s.seq, a.artifact_id FROM latent_artifacts a CROSS JOIN unnest(a.source_seqs) s (seq);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, DELETE ON latent_sources TO zaxy_app;
  END IF;
END $$;
