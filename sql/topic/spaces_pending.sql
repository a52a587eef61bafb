-- name: SpacesPending :many
-- Spaces whose topics or model are behind their projection: projected past the model's
-- seen_seq, or with no model and at least $1 event items. At most $2.
SELECT w.space_id
FROM projection_watermarks w
LEFT JOIN latent_models m USING (space_id)
WHERE (m.space_id IS NOT NULL AND w.projected_seq > m.seen_seq)
   OR (m.space_id IS NULL AND (SELECT count(*) FROM (
         SELECT 1 FROM memory_items i
         WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = w.space_id) AND i.kind = 'event'
         LIMIT @min_docs::bigint) c) >= @min_docs::bigint)
ORDER BY w.space_id
LIMIT @max_rows;
