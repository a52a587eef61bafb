-- name: RelationsDerive :exec
-- Derives the relations of the artifacts ids, just inserted, with every artifact of the space
-- (zaxy_latent_relations_derive, migration 000061).
SELECT zaxy_latent_relations_derive(@space_id, @ids::text[]);
