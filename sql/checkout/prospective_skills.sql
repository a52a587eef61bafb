-- name: ProspectiveSkills :many
-- The space's reviewed skill entries for a prospective pass: the skill.recorded event each
-- accepted skill, failure_prior or procedure_revision proposal's acceptance appended (right
-- after its proposal.accepted, in the same append: review.Decider), newest first, at most
-- @max_rows, through the index of proposals by status. An entry invalidated since
-- (memory.invalidated of its event) or erased is left out.
SELECT e.seq, e.hash, e.content, e.data::text AS data
FROM proposals p
JOIN events e ON e.space_id = p.space_id AND e.seq = p.decided_seq + 1
WHERE p.space_id = @space_id AND p.status = 'accepted' AND p.kind IN ('skill', 'failure_prior', 'procedure_revision')
  AND e.type = 'skill.recorded' AND (e.data->>'proposal_seq')::bigint = p.seq AND e.erased_by_seq IS NULL
  AND NOT EXISTS (SELECT FROM invalidations i WHERE i.space_id = p.space_id AND i.target_seq = e.seq)
ORDER BY e.seq DESC
LIMIT @max_rows;
