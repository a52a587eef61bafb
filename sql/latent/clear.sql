-- Drops a space's terms and topics before a rebuild writes new ones.
WITH t AS (DELETE FROM latent_terms WHERE space_id = $1)
DELETE FROM latent_topics WHERE space_id = $1
