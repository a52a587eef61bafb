-- Records how far the space's topics are folded in.
UPDATE latent_models SET seen_seq = greatest(seen_seq, $2) WHERE space_id = $1
