-- GET /v1/spaces/{space}/artifacts lists, for each artifact, the checkout.surfaced events whose
-- recorded weave cites it (sql/latent/artifacts_page.sql). Every checkout records one such event
-- and only the few with a weave matter, so a partial index keeps that read to those; built
-- concurrently, alone in its file, so a large log keeps taking appends meanwhile.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_surfaced_weaves
  ON events (space_id, seq DESC) WHERE type = 'checkout.surfaced' AND jsonb_exists(data, 'weave');
