-- Latent semantic model of each space (package latent, docs/latent.md): a projection of the
-- space's memory text, rebuilt by the latent_space job and thrown away freely.
--
-- latent_models: one row per space, what the model was built from.
CREATE TABLE latent_models (
  space_id  text PRIMARY KEY,
  dims      integer NOT NULL CONSTRAINT latent_models_dims CHECK (dims BETWEEN 1 AND 1000),
  docs      integer NOT NULL CONSTRAINT latent_models_docs CHECK (docs > 0),
  terms     integer NOT NULL CONSTRAINT latent_models_terms CHECK (terms > 0),
  built_seq bigint NOT NULL,
  seen_seq  bigint NOT NULL,
  built_at  timestamptz NOT NULL DEFAULT now(),
  build_ms  integer NOT NULL
);

-- latent_terms: each term's (text search lexeme's) vector in the model, idf-weighted, so a
-- text's latent vector is the sum of its terms' vectors weighted by 1 + ln(term frequency).
CREATE TABLE latent_terms (
  space_id text NOT NULL REFERENCES latent_models ON DELETE CASCADE,
  lexeme   text NOT NULL,
  vec      vector NOT NULL,
  PRIMARY KEY (space_id, lexeme)
);

-- latent_topics: each session's topic, the latent vector (unit length) of its first message,
-- and that message's seq. The topic lane ranks them by cosine distance to the query's.
CREATE TABLE latent_topics (
  space_id    text NOT NULL REFERENCES latent_models ON DELETE CASCADE,
  session_id  text NOT NULL,
  seq         bigint NOT NULL,
  occurred_at timestamptz NOT NULL,
  vec         vector NOT NULL,
  PRIMARY KEY (space_id, session_id)
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON latent_models, latent_terms, latent_topics TO zaxy_app;
  END IF;
END $$;
