-- name: SeenSet :exec
-- Records how far the space's topics are folded in.
UPDATE latent_models SET seen_seq = greatest(seen_seq, @seen_seq::bigint) WHERE space_id = @space_id;
