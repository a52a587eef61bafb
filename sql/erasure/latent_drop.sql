-- name: LatentDrop :execrows
-- Drops a space's latent model, its terms (vocabulary from the memory text) and session topics;
-- the topic_space job builds a new one from the purged text.
WITH t AS (DELETE FROM latent_terms x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = $1))
DELETE FROM latent_models m WHERE m.space_id = $1;
