-- name: PolicyRollback :exec
-- Applies a policy.rolled_back event: when the named version is current, the last version of
-- the history is current again. Anything else changes nothing.
UPDATE retrieval_policy_current c
SET version = c.history[cardinality(c.history)], history = c.history[1:cardinality(c.history) - 1],
    changed_seq = @changed_seq
WHERE c.space_id = @space_id AND c.version = @version AND cardinality(c.history) > 0;
