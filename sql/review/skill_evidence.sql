-- name: SkillEvidence :many
-- The tool calls among a proposal's evidence (seqs), in seq order, with their tool, outcome
-- and error, for the skill entry accepting a failure_prior or procedure_revision makes.
SELECT e.seq, coalesce(e.data->>'tool', '')::text AS tool, coalesce(e.data->>'outcome', '')::text AS outcome,
       coalesce(e.data->>'error', '')::text AS error
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY (@seqs::bigint[]) AND e.type = 'tool_call.completed' AND e.erased_by_seq IS NULL
ORDER BY e.seq;
