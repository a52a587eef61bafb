-- API bearer tokens. Only a sha256 of each token is stored; the token itself is shown once,
-- by zaxy token create. A token reaches only its spaces, with its scope.
CREATE TABLE api_tokens (
  token_id   text PRIMARY KEY CONSTRAINT api_tokens_id_format CHECK (token_id ~ '^[0-9a-f]{12}$'),
  hash       bytea NOT NULL UNIQUE CONSTRAINT api_tokens_hash_length CHECK (length(hash) = 32),
  scope      text NOT NULL CONSTRAINT api_tokens_scope CHECK (scope IN ('read', 'write', 'admin')),
  spaces     text[] NOT NULL CONSTRAINT api_tokens_spaces CHECK (cardinality(spaces) > 0),
  label      text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  revoked_at timestamptz
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT ON api_tokens TO zaxy_app;
    GRANT UPDATE (revoked_at) ON api_tokens TO zaxy_app;
  END IF;
END $$;
