-- name: ModelReplace :exec
-- Creates or replaces the space's model row (the caller has cleared its terms and topics).
INSERT INTO latent_models (space_id, dims, docs, terms, built_seq, seen_seq, build_ms)
VALUES (@space_id, @dims, @docs, @terms, @built_seq, @seen_seq, @build_ms)
ON CONFLICT (space_id) DO UPDATE SET
  dims = EXCLUDED.dims, docs = EXCLUDED.docs, terms = EXCLUDED.terms, built_seq = EXCLUDED.built_seq,
  seen_seq = EXCLUDED.seen_seq, built_at = now(), build_ms = EXCLUDED.build_ms;
