-- name: WeaveArtifacts :many
-- The artifacts a memory weave may draw on, read precomputed (never derived at query time):
-- current artifacts (latent_current) citing any of @seqs, the events the checkout's lanes
-- ranked (the GIN index on source_seqs); current space-wide artifacts (@types) serving
-- @phase, at most @phase_limit of them (the partial index on current artifacts by type); and
-- stale artifacts citing @seqs, read only so the weave can say why it rejected them (their
-- text is never woven). @cited_limit caps each cited branch.
(SELECT c.artifact_id, c.artifact_type, c.summary, c.source_event_refs::text AS source_event_refs,
        c.confidence, c.review_status, c.reasoning_phase, c.payload::text AS payload, c.contradicts,
        c.stale_reason, c.stale_seq
 FROM latent_current c
 WHERE c.space_id = @space_id AND c.source_seqs && @seqs::bigint[]
 ORDER BY c.artifact_id LIMIT @cited_limit)
UNION
(SELECT c.artifact_id, c.artifact_type, c.summary, c.source_event_refs::text, c.confidence, c.review_status,
        c.reasoning_phase, c.payload::text, c.contradicts, c.stale_reason, c.stale_seq
 FROM latent_current c
 WHERE c.space_id = @space_id AND c.artifact_type = ANY (@types::text[]) AND c.reasoning_phase = @phase
 ORDER BY c.confidence DESC, c.artifact_id LIMIT @phase_limit)
UNION
(SELECT a.artifact_id, a.artifact_type, '' AS summary, a.source_event_refs::text, a.confidence, a.review_status,
        a.reasoning_phase, 'null' AS payload, a.contradicts, a.stale_reason, a.stale_seq
 FROM latent_artifacts a
 WHERE a.space_id = @space_id AND a.stale_at IS NOT NULL AND a.source_seqs && @seqs::bigint[]
 ORDER BY a.artifact_id LIMIT @cited_limit);
