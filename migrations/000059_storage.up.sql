-- Storage (docs/benchmarks.md, "Storage per event"): the encoding gate's MinHash band keys
-- become one row per ranked event item instead of one per (key, item). gate_items holds each
-- item's eight band keys, 8 bytes each (the first 8 bytes of the 16 kept before: a collision
-- only adds a candidate, which the gate then compares word by word), found by a GIN index on
-- (space_id, keys), which stores every key once with a compressed list of the rows holding it.
-- The old table repeated the space id and item id in the heap and its primary key for every key.
CREATE TABLE gate_items (
  space_id text NOT NULL,
  item_id  text NOT NULL,
  seq      bigint NOT NULL,
  keys     bytea[] NOT NULL,
  PRIMARY KEY (space_id, item_id)
);

INSERT INTO gate_items (space_id, item_id, seq, keys)
SELECT space_id, item_id, min(seq), array_agg(DISTINCT substring(key FROM 1 FOR 8) ORDER BY substring(key FROM 1 FOR 8))
FROM gate_keys
GROUP BY space_id, item_id;

CREATE INDEX gate_items_keys ON gate_items USING gin (space_id, keys);

DROP TABLE gate_keys;

COMMENT ON TABLE gate_items IS 'Encoding gate: the MinHash band keys (8 bytes each) of every ranked event item it looked at while on.';

REVOKE ALL ON gate_items FROM PUBLIC;
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON gate_items TO zaxy_app;
  END IF;
END $$;

-- Embeddings are stored in half precision (halfvec): a 484-dimension vector is 976 bytes
-- instead of 1,944, so the row stays in the heap instead of TOAST. The HNSW indexes were
-- already on embedding::halfvec(dim); vectors are inserted as vector and cast on assignment,
-- and the exact lane reads embedding::vector(dim). The centroid views average the vectors as
-- vector, as before.
DROP VIEW memory.latent_centroids;
DROP VIEW latent_centroids;

ALTER TABLE embeddings ALTER COLUMN embedding TYPE halfvec USING embedding::halfvec;

CREATE VIEW latent_centroids AS
SELECT a.space_id, a.artifact_id, a.artifact_type, e.model, e.dim,
       avg(e.embedding::vector) AS centroid,
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
