-- name: ArtifactUpsert :batchexec
-- Stores an artifact. Its id addresses its content, so an existing row only has its lifecycle
-- fields (validity end, confidence, diagnostics) brought up to date.
INSERT INTO latent_artifacts (space_id, artifact_id, slot, artifact_type, summary, source_event_refs, source_seqs,
  entity_refs, valid_from, valid_to, projection_version, method, confidence, purpose_profile, reasoning_phase,
  payload_kind, payload, supersedes, contradicts, diagnostics)
VALUES (@space_id, @artifact_id, @slot, @artifact_type, @summary, @source_event_refs, @source_seqs,
  @entity_refs, @valid_from, @valid_to, @projection_version, @method, @confidence, @purpose_profile, @reasoning_phase,
  @payload_kind, @payload, @supersedes, @contradicts, @diagnostics)
ON CONFLICT (space_id, artifact_id) DO UPDATE
SET valid_to = excluded.valid_to, confidence = excluded.confidence, diagnostics = excluded.diagnostics;
