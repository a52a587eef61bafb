-- name: SpacesPending :many
-- Spaces whose projections are past their artifacts' watermark, or whose artifacts other
-- producers than @version built (the sweep enqueues latent_rebuild for them).
SELECT p.space_id
FROM projection_watermarks p
LEFT JOIN latent_watermarks l USING (space_id)
WHERE p.projected_seq > coalesce(l.built_seq, 0) OR l.built_version <> @version::integer
ORDER BY p.space_id
LIMIT @max_spaces;
