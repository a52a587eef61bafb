-- name: WeaveVerify :many
-- The current artifacts @ids (latent_current) with their text and sources, each source
-- verified against the log at query time: the event exists with the hash the artifact cites,
-- is not erased, not invalidated (projected, or still in the log past the projection
-- watermark), and its stated fact, preference or decision was not superseded, retracted or
-- invalidated (projected, or a newer statement of another value for the same holder and
-- topic, or a newer decision about the same subject, in the log's tail; keys compared
-- lower-cased with spaces collapsed), and, given @as_of, had occurred by then (a weave asked
-- about another time shows only what had happened by then; what is known now of those events,
-- their invalidation or supersession, still counts, as in the lanes). bad_seq is the first
-- source that fails (0: all verify), reason why (missing, hash_mismatch, erased, after_as_of,
-- invalidated, superseded) and at_seq the event that made it so. The artifacts are read by primary key, one probe per id (a plan that scanned
-- the space's current artifacts for the ids, as one on stale statistics did, cost 4 ms at 5,000).
-- llm_model and llm_summary are the artifact's newest LLM-assisted summary (empty when none);
-- valid_from and valid_to its validity (an episode's time window). An artifact citing an erased
-- event whose purge is pending (zaxy_erased_pending, migration 000054) is not found: its text was
-- derived from the erased one.
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
), art AS (
  SELECT c.artifact_id, c.artifact_type, c.summary, c.source_event_refs, c.confidence, c.review_status,
         c.reasoning_phase, c.payload, c.contradicts, c.valid_from, c.valid_to
  FROM unnest(@ids::text[]) AS k(artifact_id)
  JOIN latent_current c ON c.space_id = @space_id AND c.artifact_id = k.artifact_id
  WHERE NOT (c.source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
), checked AS (
  SELECT a.artifact_id, r.seq,
         CASE WHEN e.seq IS NULL THEN 'missing'
              WHEN encode(e.hash, 'hex') <> r.hash THEN 'hash_mismatch'
              WHEN e.erased_by_seq IS NOT NULL THEN 'erased'
              WHEN e.occurred_at > sqlc.narg(as_of)::timestamptz THEN 'after_as_of' END AS broken,
         e.erased_by_seq,
         coalesce((SELECT min(i.seq) FROM invalidations i WHERE i.space_id = @space_id AND i.target_seq = r.seq),
                  (SELECT p.seq FROM pending p WHERE p.target_seq = r.seq), 0)::bigint AS invalidated_seq,
         -- Through facts_closed_by_recorded (migration 000045).
         coalesce((SELECT min(f.closed_seq) FROM facts f
                   WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.recorded_seq = r.seq AND f.closed_seq IS NOT NULL
                     AND (f.status IN ('retracted', 'invalidated')
                          OR (f.status = 'superseded' AND e.type IN ('fact.asserted', 'preference.stated', 'decision.recorded')))),
                  (SELECT min(t.seq) FROM tail t
                   WHERE t.seq > r.seq AND t.type = e.type
                     AND ((e.type = 'preference.stated'
                           AND lower(coalesce(nullif(t.data->>'holder', ''), nullif(t.actor, ''), 'user'))
                               = lower(coalesce(nullif(e.data->>'holder', ''), nullif(e.actor, ''), 'user'))
                           AND lower(regexp_replace(btrim(t.data->>'topic'), '\s+', ' ', 'g'))
                               = lower(regexp_replace(btrim(e.data->>'topic'), '\s+', ' ', 'g'))
                           AND t.data->>'preference' IS DISTINCT FROM e.data->>'preference')
                       OR (e.type = 'decision.recorded' AND coalesce(e.data->>'subject', '') <> ''
                           AND lower(btrim(t.data->>'subject')) = lower(btrim(e.data->>'subject'))))), 0)::bigint AS superseded_seq
  FROM art a
  CROSS JOIN LATERAL (SELECT (j->>'seq')::bigint AS seq, j->>'hash' AS hash FROM jsonb_array_elements(a.source_event_refs) j) r
  -- One primary-key probe per source (LIMIT 1 keeps the planner from flattening it into a
  -- join). A plain join let the planner merge the sources with the space's events read in seq
  -- order, once per artifact: 3,930 events per artifact, 90 ms a weave, in a space of 7,900
  -- agent events.
  LEFT JOIN LATERAL (
    SELECT x.seq, x.hash, x.erased_by_seq, x.occurred_at, x.type, x.actor, x.data FROM events x WHERE x.space_id = @space_id AND x.seq = r.seq LIMIT 1
  ) e ON true
)
SELECT a.artifact_id, a.artifact_type, a.summary, a.source_event_refs::text AS source_event_refs, a.confidence,
       a.review_status, a.reasoning_phase, a.payload::text AS payload, a.contradicts,
       coalesce(b.seq, 0)::bigint AS bad_seq, coalesce(b.reason, '')::text AS reason, coalesce(b.at_seq, 0)::bigint AS at_seq,
       coalesce(l.model, '')::text AS llm_model, coalesce(l.summary, '')::text AS llm_summary,
       a.valid_from, a.valid_to
FROM art a
LEFT JOIN LATERAL (
  -- The artifact's newest LLM-assisted summary, if an LLM is configured (latent_llm_summaries).
  SELECT s.model, s.summary FROM latent_llm_summaries s
  WHERE s.space_id = @space_id AND s.artifact_id = a.artifact_id
  ORDER BY s.created_at DESC, s.model LIMIT 1
) l ON true
LEFT JOIN LATERAL (
  SELECT c.seq,
         CASE WHEN c.broken IS NOT NULL THEN c.broken WHEN c.invalidated_seq > 0 THEN 'invalidated' ELSE 'superseded' END AS reason,
         CASE WHEN c.broken = 'erased' THEN c.erased_by_seq WHEN c.broken IS NOT NULL THEN c.seq
              WHEN c.invalidated_seq > 0 THEN c.invalidated_seq ELSE c.superseded_seq END AS at_seq
  FROM checked c
  WHERE c.artifact_id = a.artifact_id AND (c.broken IS NOT NULL OR c.invalidated_seq > 0 OR c.superseded_seq > 0)
  ORDER BY c.seq LIMIT 1
) b ON true
ORDER BY a.artifact_id;
