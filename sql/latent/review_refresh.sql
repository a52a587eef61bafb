-- name: ReviewRefresh :exec
-- Gives every artifact of a proposed slot the review status of the newest latent proposal
-- for that slot (proposal.created data.artifact.key): pending reads as proposed.
UPDATE latent_artifacts a
SET review_status = CASE r.status WHEN 'pending' THEN 'proposed' ELSE r.status END
FROM (
  SELECT DISTINCT ON (e.data->'artifact'->>'key') e.data->'artifact'->>'key' AS slot, p.status
  FROM proposals p JOIN events e ON e.space_id = p.space_id AND e.seq = p.seq
  WHERE p.space_id = @space_id AND e.data ? 'artifact'
  ORDER BY e.data->'artifact'->>'key', p.seq DESC
) r
WHERE a.space_id = @space_id AND a.slot = r.slot
  AND a.review_status IS DISTINCT FROM (CASE r.status WHEN 'pending' THEN 'proposed' ELSE r.status END);
