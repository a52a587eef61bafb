-- name: LatentDrop :execrows
-- Drops a space's latent model, its terms (vocabulary from the memory text) and session topics;
-- the topic_space job builds a new one from the purged text.
DELETE FROM latent_models WHERE space_id = $1;
