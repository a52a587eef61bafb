-- Artifact centroids (docs/latent.md, "Centroids"): for each current artifact and embedding
-- model, the mean of the embeddings of the memory items drawn from the events it cites (an
-- event's own item and the facts extracted from it), with how many of those events have one.
-- An episode's centroid is where its session sits in the model's space. It is a view, not a
-- column: embeddings are computed after the artifacts, by another job, so a stored centroid
-- would depend on which ran first; computed on read it is a function of the log and the
-- embedder alone, always as complete as the embeddings (embedded < sources says it is partial),
-- and rebuilding the artifacts or re-embedding needs nothing more. pgvector's avg() averages
-- vectors of one dimension, which one model guarantees (embedding_models).
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

-- For analysts: the same, beside memory.latent_artifacts.
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
