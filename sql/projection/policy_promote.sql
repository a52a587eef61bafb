-- name: PolicyPromote :exec
-- Applies a policy.promoted event: the version becomes current and the replaced one goes onto
-- the history (a space without a row was on builtin-1). A version never proposed in the space,
-- or the one already current, changes nothing.
INSERT INTO retrieval_policy_current AS c (space_id, version, changed_seq, history)
SELECT @space_id::text, @version::text, @changed_seq::bigint, ARRAY['builtin-1']
WHERE EXISTS (SELECT FROM retrieval_policies p WHERE p.space_id = @space_id::text AND p.version = @version::text)
   OR (@version::text = 'builtin-1' AND EXISTS (SELECT FROM retrieval_policy_current x WHERE x.space_id = @space_id::text))
ON CONFLICT (space_id) DO UPDATE SET
  history = c.history || c.version, version = excluded.version, changed_seq = excluded.changed_seq
WHERE c.version <> excluded.version;
