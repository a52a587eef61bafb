-- name: PolicyPropose :exec
-- Adds a policy.proposed event's policy to the space's proposed policies (a version proposed
-- again keeps its first proposal: the version addresses the content).
INSERT INTO retrieval_policies (space_id, version, policy, diagnostics, proposed_seq, proposed_hash)
VALUES (@space_id, @version, @policy::jsonb, @diagnostics::jsonb, @proposed_seq, @proposed_hash)
ON CONFLICT (space_id, version) DO NOTHING;
