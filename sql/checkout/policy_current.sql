-- name: PolicyCurrent :one
-- The space's current retrieval policy: its version and, for a fitted one, the policy (NULL for
-- the built-in version). No row means the built-in policy.
SELECT c.version, p.policy
FROM retrieval_policy_current c
LEFT JOIN retrieval_policies p ON p.space_id = c.space_id AND p.version = c.version
WHERE c.space_id = @space_id;
