-- name: ProposedSlots :many
-- Those of @slots that already have a proposal (proposal.created data.artifact.key), whatever
-- its fate: one probe of index events_artifact_proposals (migration 000040) per slot. Before it,
-- every build read the whole events table (51 ms at 108,000 events, growing with every space).
SELECT DISTINCT (e.data->'artifact'->>'key')::text AS slot
FROM events e
WHERE e.space_id = @space_id AND e.type = 'proposal.created' AND e.data ? 'artifact'
  AND (e.data->'artifact'->>'key') = ANY (@slots::text[]);
