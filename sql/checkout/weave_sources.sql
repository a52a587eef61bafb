-- name: WeaveSources :many
-- The events artifacts cite, as a weave verifies them at query time: the stored hash (the
-- chain trigger checked it on append) and whatever has made the event unusable since the
-- artifacts were built: an erasure, an invalidation (projected, or still in the log past the
-- projection watermark), or its stated fact, preference or decision superseded (projected, or
-- a newer statement still in the log's tail), retracted or invalidated. A seq missing from the result is not an event of the space; 0 means none.
WITH tail AS (
  SELECT x.seq, x.type, x.actor, x.data
  FROM events x
  WHERE x.space_id = @space_id
    AND x.seq > coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = @space_id), 0)
    AND x.type IN ('memory.invalidated', 'preference.stated', 'decision.recorded')
), pending AS (
  SELECT (t.data->>'target_seq')::bigint AS target_seq, min(t.seq) AS seq
  FROM tail t WHERE t.type = 'memory.invalidated' AND t.data ? 'target_seq'
  GROUP BY 1
)
SELECT e.seq, e.hash, e.type, e.content, e.data::text AS data, e.erased_by_seq,
       coalesce((SELECT min(i.seq) FROM invalidations i WHERE i.space_id = e.space_id AND i.target_seq = e.seq),
                (SELECT p.seq FROM pending p WHERE p.target_seq = e.seq), 0)::bigint AS invalidated_seq,
       coalesce((SELECT min(f.closed_seq) FROM facts f
        WHERE f.space_id = e.space_id AND f.recorded_seq = e.seq AND f.closed_seq IS NOT NULL
          AND (f.status IN ('retracted', 'invalidated')
               OR (f.status = 'superseded' AND e.type IN ('fact.asserted', 'preference.stated', 'decision.recorded')))),
                -- Not projected yet: a later statement of another value for the same holder and
                -- topic, or a later decision about the same subject, read from the log's tail
                -- (keys compared lower-cased with spaces collapsed).
                (SELECT min(t.seq) FROM tail t
                 WHERE t.seq > e.seq AND t.type = e.type
                   AND ((e.type = 'preference.stated'
                         AND lower(coalesce(nullif(t.data->>'holder', ''), nullif(t.actor, ''), 'user'))
                             = lower(coalesce(nullif(e.data->>'holder', ''), nullif(e.actor, ''), 'user'))
                         AND lower(regexp_replace(btrim(t.data->>'topic'), '\s+', ' ', 'g'))
                             = lower(regexp_replace(btrim(e.data->>'topic'), '\s+', ' ', 'g'))
                         AND t.data->>'preference' IS DISTINCT FROM e.data->>'preference')
                     OR (e.type = 'decision.recorded' AND coalesce(e.data->>'subject', '') <> ''
                         AND lower(btrim(t.data->>'subject')) = lower(btrim(e.data->>'subject'))))), 0)::bigint AS superseded_seq
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY (@seqs::bigint[]);
