-- name: PolicyPromote :exec
-- Applies a policy.promoted event: the version becomes current and the replaced one goes onto
-- the history. A space without a row was on the built-in policy @replaced (the event's
-- previous one, vocab.ReplacedBuiltin). A version neither proposed in the space nor built in,
-- or the one already current, changes nothing.
INSERT INTO retrieval_policy_current AS c (space_id, version, changed_seq, history)
SELECT @space_id::text, @version::text, @changed_seq::bigint, ARRAY[@replaced::text]
WHERE EXISTS (SELECT FROM retrieval_policies p WHERE p.space_id = @space_id::text AND p.version = @version::text)
   OR (@version::text = ANY(@builtin_versions::text[])
       AND (@version::text <> @replaced::text OR EXISTS (SELECT FROM retrieval_policy_current x WHERE x.space_id = @space_id::text)))
ON CONFLICT (space_id) DO UPDATE SET
  history = c.history || c.version, version = excluded.version, changed_seq = excluded.changed_seq
WHERE c.version <> excluded.version;
