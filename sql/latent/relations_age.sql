-- name: RelationsAGE :many
-- The relations of every kind with one of the artifacts ids at either end, read through the
-- space's AGE graph with Cypher, the ids bound as a parameter (zaxy_age_latent_relations,
-- migration 000061; SQLSTATE ZX031 when the mirror cannot answer).
SELECT r.kind::text AS kind, r.from_id::text AS from_id, coalesce(r.to_id, '')::text AS to_id,
       coalesce(r.to_seq, 0)::bigint AS to_seq, coalesce(r.to_entity, '')::text AS to_entity
FROM zaxy_age_latent_relations(@space_id, @ids::text[]) r
ORDER BY 1, 2, 3, 4, 5;
