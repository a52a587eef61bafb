-- The confidence revision an artifact is ranked by, found in one place for every reader (the
-- weave, the prospective pass, the memory actions, the retrospective pass): its latest
-- memory.confidence_revised that is not erased, naming either its id or its slot with the same
-- sources (data.artifact.sources_sha256 = zaxy_artifact_sources_digest of its source_seqs).
-- The second form keeps what was learned about an artifact when a new producer version
-- re-addresses it (the id covers the version; slot and sources do not change). A new version
-- of a slot with new sources starts from its producer's confidence again (docs/latent.md).

-- The sha256 (lowercase hex) of an artifact's source seqs in order, in decimal joined by
-- commas: vocab.SourcesDigest in Go.
CREATE FUNCTION zaxy_artifact_sources_digest(p_source_seqs bigint[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT encode(sha256(convert_to(array_to_string(p_source_seqs, ','), 'UTF8')), 'hex') $$;

-- The seq of the latest revision that applies to the artifact p_artifact_id of slot p_slot
-- citing p_source_seqs in space p_space; NULL when there is none (the producer's confidence
-- holds). With a NULL slot (an artifact no longer in latent_artifacts) only its id is looked up.
-- One probe of index events_confidence_revisions (000035) and one of
-- events_confidence_revisions_by_slot (000037); PL/pgSQL so that each connection plans the two
-- probes once, not once per query that calls it.
CREATE FUNCTION zaxy_confidence_revision_seq(p_space text, p_artifact_id text, p_slot text, p_source_seqs bigint[])
RETURNS bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
  by_id bigint;
  by_slot bigint;
BEGIN
  SELECT e.seq INTO by_id
  FROM events e
  WHERE e.space_id = p_space AND e.type = 'memory.confidence_revised' AND e.erased_by_seq IS NULL
    AND e.data->'artifact'->>'id' = p_artifact_id
  ORDER BY e.seq DESC
  LIMIT 1;
  IF p_slot IS NOT NULL THEN
    SELECT e.seq INTO by_slot
    FROM events e
    WHERE e.space_id = p_space AND e.type = 'memory.confidence_revised' AND e.erased_by_seq IS NULL
      AND e.data->'artifact'->>'key' = p_slot
      AND e.data->'artifact'->>'sources_sha256' = zaxy_artifact_sources_digest(p_source_seqs)
    ORDER BY e.seq DESC
    LIMIT 1;
  END IF;
  RETURN greatest(by_id, by_slot);
END
$$;
