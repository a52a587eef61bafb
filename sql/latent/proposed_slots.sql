-- name: ProposedSlots :many
-- The slots that already have a proposal (proposal.created data.artifact.key), whatever its fate.
SELECT DISTINCT (e.data->'artifact'->>'key')::text AS slot
FROM events e
WHERE e.space_id = @space_id AND e.type = 'proposal.created' AND e.data ? 'artifact';
