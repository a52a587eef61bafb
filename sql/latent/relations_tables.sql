-- name: RelationsTables :many
-- The relations of every kind with one of the artifacts ids at either end, read from the
-- relational tables: latent_relations (both ends), SUPERSEDES and CONTRADICTS from the
-- artifacts' columns (both ends, the far artifact existing, as the mirror's edges need),
-- DERIVED_FROM from source_seqs and COVERS from entity_refs (outgoing only: their far ends
-- are events and entities).
SELECT r.kind::text AS kind, r.from_id::text AS from_id, coalesce(r.to_id, '')::text AS to_id,
       coalesce(r.to_seq, 0)::bigint AS to_seq, coalesce(r.to_entity, '')::text AS to_entity
FROM (
  SELECT x.kind, x.from_id, x.to_id::text AS to_id, NULL::bigint AS to_seq, NULL::text AS to_entity
  FROM latent_relations x WHERE x.space_id = @space_id AND x.from_id = ANY (@ids::text[])
  UNION
  SELECT x.kind, x.from_id, x.to_id, NULL, NULL
  FROM latent_relations x WHERE x.space_id = @space_id AND x.to_id = ANY (@ids::text[])
  UNION
  SELECT 'supersedes', a.artifact_id, a.supersedes, NULL, NULL
  FROM latent_artifacts a
  JOIN latent_artifacts o ON o.space_id = a.space_id AND o.artifact_id = a.supersedes
  WHERE a.space_id = @space_id AND (a.artifact_id = ANY (@ids::text[]) OR a.supersedes = ANY (@ids::text[]))
    AND a.supersedes IS NOT NULL
  UNION
  SELECT 'contradicts', a.artifact_id, c.id, NULL, NULL
  FROM latent_artifacts a
  CROSS JOIN unnest(a.contradicts) c (id)
  JOIN latent_artifacts o ON o.space_id = a.space_id AND o.artifact_id = c.id
  WHERE a.space_id = @space_id AND cardinality(a.contradicts) > 0
    AND (a.artifact_id = ANY (@ids::text[]) OR c.id = ANY (@ids::text[]))
  UNION
  SELECT 'derived_from', a.artifact_id, NULL, s.seq, NULL
  FROM latent_artifacts a CROSS JOIN unnest(a.source_seqs) s (seq)
  WHERE a.space_id = @space_id AND a.artifact_id = ANY (@ids::text[])
  UNION
  SELECT 'covers', a.artifact_id, NULL, NULL, e.id
  FROM latent_artifacts a CROSS JOIN unnest(a.entity_refs) e (id)
  WHERE a.space_id = @space_id AND a.artifact_id = ANY (@ids::text[])
) r
ORDER BY 1, 2, 3, 4, 5;
