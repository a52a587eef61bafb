-- name: AGESync :exec
-- Replaces the space's latent mirror in its AGE graph.
SELECT zaxy_age_latent_sync(@space_id);
