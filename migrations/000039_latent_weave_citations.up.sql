-- Which checkout weaves cited each latent artifact (GET /v1/spaces/{space}/artifacts lists an
-- artifact's latest weaves). The list read every checkout.surfaced event of the space that
-- recorded a weave for each page: 110 ms at 8,000 weaves, growing with every checkout that asks
-- for one. This is a projection of those events (written only by the projector, in the
-- transaction that applies them; discarded and replayed by a rebuild; covered by the projection
-- checksum): one row per (artifact id, surfacing event), so an artifact's latest weaves are one
-- index range read. Only ids of the form of an artifact id (64 lowercase hex digits) are kept;
-- an erased record's tombstone cites nothing.
CREATE TABLE latent_weave_citations (
  space_id    text NOT NULL,
  artifact_id text NOT NULL,
  seq         bigint NOT NULL,
  PRIMARY KEY (space_id, artifact_id, seq)
);

-- What the projector has already applied, from the log (the events past a space's watermark
-- are applied by the projector as it catches up).
INSERT INTO latent_weave_citations (space_id, artifact_id, seq)
SELECT DISTINCT e.space_id, a.id, e.seq
FROM events e
JOIN projection_watermarks w ON w.space_id = e.space_id AND e.seq <= w.projected_seq
CROSS JOIN LATERAL jsonb_array_elements_text(
  CASE WHEN jsonb_typeof(e.data->'weave'->'artifact_ids') = 'array' THEN e.data->'weave'->'artifact_ids' ELSE '[]'::jsonb END
) a (id)
WHERE e.type = 'checkout.surfaced' AND e.erased_by_seq IS NULL AND jsonb_exists(e.data, 'weave')
  AND a.id ~ '^[0-9a-f]{64}$'
ON CONFLICT DO NOTHING;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON latent_weave_citations TO zaxy_app;
  END IF;
END $$;
