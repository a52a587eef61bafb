-- name: LaneTopic :many
-- Topic lane: the first messages of the sessions whose topic vector (latent_topics) is
-- nearest the query's latent vector @query_vec by cosine distance, among sessions begun by
-- @as_of, best first. An exact scan: a space has far fewer sessions than memories.
SELECT ('ev:' || t.seq)::text AS item_id
FROM latent_topics t
WHERE t.space_id = @space_id AND t.occurred_at <= @as_of
ORDER BY t.vec <=> @query_vec::vector, t.seq
LIMIT @max_rows;
