-- name: ArtifactsPage :many
-- One page of a space's artifacts for GET /v1/spaces/{space}/artifacts, in id order after
-- @after_id: current ones only unless @include_stale, narrowed to @artifact_type and to those
-- covering @entity_id when given (empty for any). Each carries weaves, the seqs of the latest
-- @weaves_limit checkout.surfaced events whose recorded weave (checkout.SurfacedWeave,
-- data->'weave'->'artifact_ids') cites it, newest first: the space's surfaced events are read
-- once for the whole page, keeping those that cite any artifact of it (only the events that
-- recorded a weave, through the partial index events_surfaced_weaves, migration 000025).
WITH page AS MATERIALIZED (
  SELECT a.artifact_id, a.artifact_type, a.summary, a.source_event_refs::text AS source_event_refs, a.entity_refs,
         a.valid_from, a.valid_to, a.method, a.confidence, a.review_status, a.authority_status,
         a.stale_at, a.stale_seq, a.stale_reason, a.supersedes
  FROM latent_artifacts a
  WHERE a.space_id = @space_id AND (@include_stale::boolean OR a.stale_at IS NULL)
    AND (@artifact_type::text = '' OR a.artifact_type = @artifact_type::text)
    AND (@entity_id::text = '' OR @entity_id::text = ANY (a.entity_refs))
    AND a.artifact_id > @after_id::text
  ORDER BY a.artifact_id
  LIMIT @max_rows
), woven AS MATERIALIZED (
  SELECT w.artifact_id, e.seq
  FROM events e
  CROSS JOIN LATERAL jsonb_array_elements_text(
    CASE WHEN jsonb_typeof(e.data->'weave'->'artifact_ids') = 'array' THEN e.data->'weave'->'artifact_ids' ELSE '[]'::jsonb END
  ) w (artifact_id)
  WHERE e.space_id = @space_id AND e.type = 'checkout.surfaced' AND jsonb_exists(e.data, 'weave')
    AND jsonb_exists_any(e.data->'weave'->'artifact_ids', (SELECT coalesce(array_agg(p.artifact_id), '{}') FROM page p))
)
SELECT p.artifact_id, p.artifact_type, p.summary, p.source_event_refs, p.entity_refs, p.valid_from, p.valid_to,
       p.method, p.confidence, p.review_status, p.authority_status, p.stale_at, p.stale_seq, p.stale_reason,
       p.supersedes,
       coalesce((SELECT array_agg(x.seq ORDER BY x.seq DESC)
                 FROM (SELECT w.seq FROM woven w WHERE w.artifact_id = p.artifact_id
                       ORDER BY w.seq DESC LIMIT @weaves_limit::integer) x), '{}')::bigint[] AS weaves
FROM page p
ORDER BY p.artifact_id;
