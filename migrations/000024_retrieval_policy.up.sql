-- Retrieval policies (package policy, docs/checkout.md "Retrieval policy"): the lane weights and
-- boosts checkout ranks with, as versioned values learned offline from a space's own log. The
-- log holds policy.proposed (the fitted policy and its fit diagnostics), policy.promoted and
-- policy.rolled_back events; these two tables are their projection, discarded and rebuilt with
-- the others and covered by the projection checksum. A space without a current row ranks with
-- the built-in policy (version builtin-1).

-- Every proposed policy of a space: its content-addressed version, the policy itself
-- (checkout.Policy without its version) and the fit's diagnostics, with the proposing event.
CREATE TABLE retrieval_policies (
  space_id      text NOT NULL,
  version       text NOT NULL CONSTRAINT retrieval_policies_version CHECK (version ~ '^fit-[0-9a-f]{12}$'),
  policy        jsonb NOT NULL CONSTRAINT retrieval_policies_policy CHECK (jsonb_typeof(policy) = 'object'),
  diagnostics   jsonb NOT NULL DEFAULT '{}',
  proposed_seq  bigint NOT NULL,
  proposed_hash bytea NOT NULL,
  PRIMARY KEY (space_id, version)
);

-- The policy a space ranks with now, and the versions it replaced (oldest first): a rollback
-- restores the last of them. changed_seq is the promotion or rollback that made it current.
CREATE TABLE retrieval_policy_current (
  space_id    text PRIMARY KEY,
  version     text NOT NULL,
  changed_seq bigint NOT NULL,
  history     text[] NOT NULL DEFAULT '{}'
);

DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON retrieval_policies, retrieval_policy_current TO zaxy_app;
  END IF;
END $$;
