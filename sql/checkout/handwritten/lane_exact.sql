-- Exact lane: entities named in the query ($2: candidate ids, those the candidate keys give
-- (graph.EntityID) and the candidates themselves, any of which may be an id) and the items about
-- them: their current facts (valid at $3) and the latest events mentioning them, that had
-- occurred by $3. Each entity carries its specificity, an IDF over the space's items scaled
-- to [0, 1]: ln(N/df)/ln(N), N the space's items and df the entity's mentions (1 for an
-- entity named once, 0 for one named in every item). N is the latest projected item's seq:
-- an upper bound of the item count (every item is one event's, and seqs count events) read
-- from the index in constant time, where count(*) grows with the space. Names that speak in
-- the space (the actor or data.name of any of its events, lower-cased) are no entity
-- matches: a speaker's name says who talked, not what about. The projected events' speakers
-- are looked up by key in speaker_names; those of the events past the watermark (at most the
-- latest $5, usually none) are read from the log. Returns item ids with their most specific
-- matched entity and its specificity, most specific first, then facts before events, then
-- latest first. Nothing derived from an erased event whose purge is pending
-- (zaxy_erased_pending, migration 000054) is matched: an entity it named first, a fact it
-- recorded, its mentions.
WITH n AS (
  SELECT greatest(max(seq), 2)::float8 AS n FROM memory_items WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1)
), tail AS (
  SELECT DISTINCT lower(v.name) AS key
  FROM (SELECT actor, data->>'name' AS dname FROM events
        WHERE space_id = $1
          AND seq > coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = $1), 0)
        ORDER BY seq DESC LIMIT $5) e,
       LATERAL (VALUES (e.actor), (e.dname)) v (name)
  WHERE v.name IS NOT NULL AND v.name <> ''
), hit AS (
  SELECT e.entity_id, e.key,
         greatest(0, least(1, ln(n.n / greatest(e.mentions, 1)) / ln(n.n)))::float8 AS spec
  FROM entities e, n
  WHERE e.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND e.entity_id = ANY ($2::text[])
    AND NOT EXISTS (SELECT FROM speaker_names s WHERE s.space_id = $1 AND s.name_key = e.key)
    AND e.key NOT IN (SELECT key FROM tail)
    AND e.first_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
), fact_items AS (
  SELECT 'fact:' || f.fact_id AS item_id, h.entity_id, h.spec, f.recorded_seq AS seq, 0 AS pri
  FROM hit h
  JOIN facts f ON f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND (f.subject_id = h.entity_id OR f.object_id = h.entity_id)
  WHERE f.status <> 'invalidated' AND f.valid_from <= $3 AND (f.valid_to IS NULL OR f.valid_to > $3)
    AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
), mention_items AS (
  SELECT DISTINCT ON (m.seq) 'ev:' || m.seq AS item_id, h.entity_id, h.spec, m.seq, 1 AS pri
  FROM hit h
  CROSS JOIN LATERAL (
    SELECT m.seq FROM mentions m
    JOIN memory_items i ON i.space_key = m.space_key AND i.item_id = 'ev:' || m.seq AND i.occurred_at <= $3
    WHERE m.space_key = (SELECT s.space_key FROM spaces s WHERE s.space_id = $1) AND m.entity_id = h.entity_id AND m.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
    ORDER BY m.seq DESC
    LIMIT $4
  ) m
  ORDER BY m.seq DESC, h.spec DESC, h.entity_id
), ranked AS (
  SELECT DISTINCT ON (item_id) item_id, entity_id, spec, seq, pri
  FROM (SELECT * FROM fact_items UNION ALL SELECT * FROM mention_items) x
  ORDER BY item_id, spec DESC, entity_id
)
SELECT item_id, entity_id, spec FROM ranked
ORDER BY spec DESC, pri, seq DESC, item_id
LIMIT $4
