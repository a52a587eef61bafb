-- name: SpacesPending :many
-- Spaces whose projections are past their artifacts' watermark (the sweep enqueues
-- latent_rebuild for them).
SELECT p.space_id
FROM projection_watermarks p
LEFT JOIN latent_watermarks l USING (space_id)
WHERE p.projected_seq > coalesce(l.built_seq, 0)
ORDER BY p.space_id
LIMIT @max_spaces;
