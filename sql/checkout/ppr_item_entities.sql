-- name: PprItemEntities :many
-- PPR lane, items to entities: the entities each event of @seqs mentions and each fact of
-- @fact_ids links (subject and object), with each entity's specificity (the exact lane's
-- IDF, lane_exact.sql), so the entities of the vector lane's best items can seed the walk.
-- Names that speak in the space are left out, as the exact lane leaves them out: a speaker's
-- name says who talked, not what about, and would link every turn of that speaker. Nothing
-- derived from an erased event whose purge is pending (zaxy_erased_pending, migration 000054).
WITH n AS (
  SELECT greatest(max(seq), 2)::float8 AS n FROM memory_items
  WHERE space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text)
), links AS (
  SELECT DISTINCT ('ev:' || m.seq)::text AS item_id, m.entity_id
  FROM mentions m
  WHERE m.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text) AND m.seq = ANY (@seqs::bigint[]) AND m.seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
  UNION
  SELECT ('fact:' || f.fact_id)::text, x.entity_id
  FROM facts f CROSS JOIN LATERAL (VALUES (f.subject_id), (f.object_id)) x (entity_id)
  WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.fact_id = ANY (@fact_ids::text[]) AND x.entity_id IS NOT NULL
    AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
)
SELECT l.item_id, l.entity_id,
       greatest(0, least(1, ln(n.n / greatest(en.mentions, 1)) / ln(n.n)))::float8 AS spec
FROM links l
JOIN entities en ON en.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND en.entity_id = l.entity_id
CROSS JOIN n
WHERE NOT EXISTS (SELECT FROM speaker_names s WHERE s.space_id = @space_id AND s.name_key = en.key)
  AND en.first_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
ORDER BY l.item_id, l.entity_id;
