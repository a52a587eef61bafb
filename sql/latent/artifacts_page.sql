-- name: ArtifactsPage :many
-- One page of a space's artifacts for GET /v1/spaces/{space}/artifacts, in id order after
-- @after_id: current ones only unless @include_stale, narrowed to @artifact_type and to those
-- covering @entity_id when given (empty for any). Each carries weaves, the seqs of the latest
-- @weaves_limit checkout.surfaced events whose recorded weave (checkout.SurfacedWeave,
-- data->'weave'->'artifact_ids') cites it, newest first: one range read of the projection
-- latent_weave_citations (migration 000039) per artifact, however many weaves the space holds,
-- and the records past the projection watermark read from the log (through the partial index
-- events_surfaced_weaves, migration 000025), so a weave is listed as soon as it is recorded.
-- confidence is what the weave and the memory actions rank the artifact by: its latest
-- confidence revision (zaxy_confidence_revision_seq, migration 000038; revision_seq and
-- revision_hash name it, 0 and empty when there is none), else produced_confidence, the
-- producer's.
-- An artifact citing an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is left out: its text was derived from the erased one.
WITH page AS MATERIALIZED (
  SELECT a.artifact_id, a.artifact_type, a.summary, a.source_event_refs::text AS source_event_refs, a.entity_refs,
         a.valid_from, a.valid_to, a.method, a.confidence, a.review_status, a.authority_status,
         a.stale_at, a.stale_seq, a.stale_reason, a.supersedes, a.slot, a.source_seqs
  FROM latent_artifacts a
  WHERE a.space_id = @space_id AND (@include_stale::boolean OR a.stale_at IS NULL)
    AND (@artifact_type::text = '' OR a.artifact_type = @artifact_type::text)
    AND (@entity_id::text = '' OR @entity_id::text = ANY (a.entity_refs))
    AND a.artifact_id > @after_id::text AND NOT (a.source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
  ORDER BY a.artifact_id
  LIMIT @max_rows
), tail AS MATERIALIZED (
  SELECT w.artifact_id, e.seq
  FROM events e
  CROSS JOIN LATERAL jsonb_array_elements_text(
    CASE WHEN jsonb_typeof(e.data->'weave'->'artifact_ids') = 'array' THEN e.data->'weave'->'artifact_ids' ELSE '[]'::jsonb END
  ) w (artifact_id)
  WHERE e.space_id = @space_id AND e.type = 'checkout.surfaced' AND jsonb_exists(e.data, 'weave') AND e.erased_by_seq IS NULL
    AND e.seq > coalesce((SELECT m.projected_seq FROM projection_watermarks m WHERE m.space_id = @space_id), 0)
)
SELECT p.artifact_id, p.artifact_type, p.summary, p.source_event_refs, p.entity_refs, p.valid_from, p.valid_to,
       p.method, p.confidence AS produced_confidence, coalesce(r.confidence, p.confidence::float8)::float8 AS confidence,
       coalesce(r.seq, 0)::bigint AS revision_seq, coalesce(r.hash, ''::bytea)::bytea AS revision_hash,
       p.review_status, p.authority_status, p.stale_at, p.stale_seq, p.stale_reason, p.supersedes,
       coalesce((SELECT array_agg(w.seq ORDER BY w.seq DESC)
                 FROM (SELECT u.seq
                       FROM ((SELECT c.seq FROM latent_weave_citations c
                              WHERE c.space_id = @space_id AND c.artifact_id = p.artifact_id
                              ORDER BY c.seq DESC LIMIT @weaves_limit::integer)
                             UNION
                             SELECT t.seq FROM tail t WHERE t.artifact_id = p.artifact_id) u
                       ORDER BY u.seq DESC LIMIT @weaves_limit::integer) w), '{}')::bigint[] AS weaves
FROM page p
LEFT JOIN LATERAL (
  SELECT (e.data->>'confidence')::float8 AS confidence, e.seq, e.hash
  FROM events e
  WHERE e.space_id = @space_id AND e.seq = zaxy_confidence_revision_seq(@space_id, p.artifact_id, p.slot, p.source_seqs)
) r ON true
ORDER BY p.artifact_id;
