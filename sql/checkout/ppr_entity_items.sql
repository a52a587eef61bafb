-- name: PprEntityItems :many
-- PPR lane, entity to items: for each entity of @entity_ids, its degree (its mentions and
-- its facts valid at @as_of, all of them, so the walk's step from it is 1/degree even where
-- the neighbourhood is cut) and up to @fanout latest items of each kind: the events mentioning
-- it that had occurred by @as_of, and its facts (subject or object) valid at @as_of. Nothing
-- derived from an erased event whose purge is pending (zaxy_erased_pending, migration 000054):
-- an entity it named first, its mentions, the facts it recorded.
WITH e AS (
  SELECT en.entity_id, en.mentions,
         (SELECT count(*) FROM facts f
          WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND (f.subject_id = en.entity_id OR f.object_id = en.entity_id)
            AND f.status <> 'invalidated' AND f.valid_from <= @as_of AND (f.valid_to IS NULL OR f.valid_to > @as_of)) AS facts
  FROM entities en
  WHERE en.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND en.entity_id = ANY (@entity_ids::text[]) AND en.first_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
)
SELECT e.entity_id, ('ev:' || ev.seq)::text AS item_id, (e.mentions + e.facts)::bigint AS degree
FROM e CROSS JOIN LATERAL (
  SELECT DISTINCT m.seq FROM mentions m
  JOIN memory_items i ON i.space_key = m.space_key AND i.item_id = 'ev:' || m.seq AND i.occurred_at <= @as_of
  WHERE m.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text) AND m.entity_id = e.entity_id AND m.seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
  ORDER BY m.seq DESC
  LIMIT @fanout
) ev
UNION ALL
SELECT e.entity_id, ('fact:' || fa.fact_id)::text AS item_id, (e.mentions + e.facts)::bigint AS degree
FROM e CROSS JOIN LATERAL (
  SELECT f.fact_id FROM facts f
  WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND (f.subject_id = e.entity_id OR f.object_id = e.entity_id)
    AND f.status <> 'invalidated' AND f.valid_from <= @as_of AND (f.valid_to IS NULL OR f.valid_to > @as_of)
    AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending(@space_id))::bigint[])
  ORDER BY f.recorded_seq DESC, f.fact_id
  LIMIT @fanout
) fa;
