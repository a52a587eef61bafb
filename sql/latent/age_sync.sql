-- name: AGESync :exec
-- Brings the space's latent mirror in its AGE graph up to date, by difference (migration 000034).
SELECT zaxy_age_latent_sync(@space_id);
