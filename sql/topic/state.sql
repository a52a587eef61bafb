-- name: State :one
-- The space's latent model, if any: what it was built from and how far topics are folded in.
SELECT docs, built_seq, seen_seq FROM latent_models WHERE space_id = @space_id;
