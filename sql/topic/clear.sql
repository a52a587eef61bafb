-- name: Clear :exec
-- Drops a space's terms and topics before a rebuild writes new ones.
WITH t AS (DELETE FROM latent_terms x WHERE x.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id))
DELETE FROM latent_topics p WHERE p.space_id = @space_id;
