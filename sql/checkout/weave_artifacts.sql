-- name: WeaveArtifacts :many
-- The artifacts a memory weave may draw on, read precomputed (never derived at query time),
-- narrow (no text, no sources: the weave picks first and reads those of its picks with
-- WeaveVerify). cited: every artifact citing any of @seqs, the events the checkout's lanes
-- ranked, found through latent_sources (migration 000021, by its primary key), with the seqs
-- of @seqs it cites (hits). From it: the current ones (not stale), most hits first, at most
-- @cited_limit; and the stale ones, read only so the weave can say why it rejected them.
-- Besides: current space-wide artifacts (@types) serving @phase, at most @phase_limit (the
-- partial index on current artifacts by type). Current means what the latent_current view
-- holds: stale_at IS NULL. sources is how many events an artifact cites: what verifying it
-- costs (the weave verifies at most weaveVerifySources of them). confidence is what the weave
-- ranks and shows an artifact by: its latest confidence revision (revise_confidence, or the
-- retrospective pass judging an outcome; zaxy_confidence_revision_seq, migration 000038), else
-- produced_confidence, the producer's, which also orders the rows within each arm. Artifacts
-- citing an erased event whose purge is pending (zaxy_erased_pending, migration 000054) are
-- left out.
WITH hit AS MATERIALIZED (
  SELECT s.artifact_id, array_agg(s.seq ORDER BY s.seq)::bigint[] AS hits
  FROM latent_sources s
  WHERE s.space_id = @space_id AND s.seq = ANY (@seqs::bigint[])
  GROUP BY s.artifact_id
), cited AS MATERIALIZED (
  SELECT a.artifact_id, a.slot, a.source_seqs, a.artifact_type, a.confidence, a.review_status, a.reasoning_phase, a.contradicts,
         a.stale_reason, a.stale_seq, a.stale_at, h.hits, cardinality(a.source_seqs) AS sources
  FROM hit h JOIN latent_artifacts a ON a.space_id = @space_id AND a.artifact_id = h.artifact_id
  WHERE NOT (a.source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
), picked AS (
(SELECT c.artifact_id, c.slot, c.source_seqs, c.artifact_type, c.confidence, c.review_status, c.reasoning_phase, c.contradicts,
        c.stale_reason, c.stale_seq, c.hits, c.sources
 FROM cited c WHERE c.stale_at IS NULL
 ORDER BY cardinality(c.hits) DESC, c.confidence DESC, c.artifact_id LIMIT @cited_limit)
UNION ALL
(SELECT c.artifact_id, c.slot, c.source_seqs, c.artifact_type, c.confidence, c.review_status, c.reasoning_phase, c.contradicts,
        c.stale_reason, c.stale_seq, '{}'::bigint[], cardinality(c.source_seqs)
 FROM latent_current c
 WHERE c.space_id = @space_id AND c.artifact_type = ANY (@types::text[]) AND c.reasoning_phase = @phase
   AND NOT (c.source_seqs && @seqs::bigint[]) AND NOT (c.source_seqs && (SELECT zaxy_erased_pending(@space_id))::bigint[])
 ORDER BY c.confidence DESC, c.artifact_id LIMIT @phase_limit)
UNION ALL
(SELECT c.artifact_id, c.slot, c.source_seqs, c.artifact_type, c.confidence, c.review_status, c.reasoning_phase, c.contradicts,
        c.stale_reason, c.stale_seq, c.hits, c.sources
 FROM cited c WHERE c.stale_at IS NOT NULL
 ORDER BY cardinality(c.hits) DESC, c.artifact_id LIMIT @cited_limit)
)
SELECT p.artifact_id, p.artifact_type, p.confidence AS produced_confidence,
       coalesce(r.confidence, p.confidence::float8)::float8 AS confidence, p.review_status, p.reasoning_phase,
       p.contradicts, p.stale_reason, p.stale_seq, p.hits, p.sources
FROM picked p
LEFT JOIN LATERAL (
  SELECT (e.data->>'confidence')::float8 AS confidence, e.seq, e.hash
  FROM events e
  WHERE e.space_id = @space_id AND e.seq = zaxy_confidence_revision_seq(@space_id, p.artifact_id, p.slot, p.source_seqs)
) r ON p.stale_reason IS NULL;
