-- name: Discard :exec
-- Discards a space's projections (speaker names, proposals, the reinforcement ledger, salience,
-- the encoding gate's keys and setting, latent artifacts and retrieval policies included; the
-- latent_rebuild job derives the artifacts again) and resets its watermark. Embeddings stay until
-- embed_prune: a vector whose item comes back with the same text is still right. The caller
-- holds the watermark lock.
WITH m AS (DELETE FROM mentions x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)),
     f AS (DELETE FROM facts x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)),
     i AS (DELETE FROM invalidations x WHERE x.space_id = @space_id),
     s AS (DELETE FROM speaker_names x WHERE x.space_id = @space_id),
     p AS (DELETE FROM proposals x WHERE x.space_id = @space_id),
     r AS (DELETE FROM reinforcements x WHERE x.space_id = @space_id),
     sa AS (DELETE FROM salience x WHERE x.space_id = @space_id),
     sp AS (DELETE FROM salience_spaces x WHERE x.space_id = @space_id),
     sd AS (DELETE FROM salience_decayed x WHERE x.space_id = @space_id),
     sr AS (DELETE FROM salience_decay_runs x WHERE x.space_id = @space_id),
     la AS (DELETE FROM latent_artifacts x WHERE x.space_id = @space_id),
     lw AS (DELETE FROM latent_watermarks x WHERE x.space_id = @space_id),
     wc AS (DELETE FROM latent_weave_citations x WHERE x.space_id = @space_id),
     gk AS (DELETE FROM gate_keys x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id)),
     gs AS (DELETE FROM gate_spaces x WHERE x.space_id = @space_id),
     rp AS (DELETE FROM retrieval_policies x WHERE x.space_id = @space_id),
     rc AS (DELETE FROM retrieval_policy_current x WHERE x.space_id = @space_id)
UPDATE projection_watermarks w SET projected_seq = 0, projected_hash = NULL, updated_at = clock_timestamp()
WHERE w.space_id = @space_id;
