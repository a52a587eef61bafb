-- Reverses 000059_storage.up.sql: embeddings as vector (the values stay those half precision
-- kept) and one gate_keys row per (key, item) again. The keys stay 8
-- bytes long; a rebuild of a space with the gate on writes them as the binary of the time does.
CREATE TABLE gate_keys (
  space_id text NOT NULL,
  key      bytea NOT NULL,
  item_id  text NOT NULL,
  seq      bigint NOT NULL,
  PRIMARY KEY (space_id, key, item_id)
);

INSERT INTO gate_keys (space_id, key, item_id, seq)
SELECT g.space_id, k.key, g.item_id, g.seq
FROM gate_items g, unnest(g.keys) AS k(key);

DROP TABLE gate_items;

REVOKE ALL ON gate_keys FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_keys TO zaxy_app;
  END IF;
END $$;

DROP VIEW memory.latent_centroids;
DROP VIEW latent_centroids;

ALTER TABLE embeddings ALTER COLUMN embedding TYPE vector USING embedding::vector;

CREATE VIEW latent_centroids AS
SELECT a.space_id, a.artifact_id, a.artifact_type, e.model, e.dim,
       avg(e.embedding) AS centroid,
       count(DISTINCT s.seq)::integer AS embedded,
       (SELECT count(*) FROM latent_sources x WHERE x.space_id = a.space_id AND x.artifact_id = a.artifact_id)::integer AS sources
FROM latent_current a
JOIN latent_sources s ON s.space_id = a.space_id AND s.artifact_id = a.artifact_id
JOIN memory_items m ON m.space_id = s.space_id AND m.seq = s.seq
JOIN embeddings e ON e.space_id = m.space_id AND e.item_id = m.item_id
GROUP BY a.space_id, a.artifact_id, a.artifact_type, e.model, e.dim;

CREATE VIEW memory.latent_centroids AS
SELECT space_id, artifact_id, artifact_type, model, dim, centroid, embedded, sources FROM latent_centroids;

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT ON latent_centroids TO zaxy_app;
  END IF;
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_analyst') THEN
    GRANT SELECT ON memory.latent_centroids TO zaxy_analyst;
  END IF;
END $$;
