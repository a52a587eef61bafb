-- Topic lane: the first messages of the sessions whose topic vector (latent_topics) is
-- nearest the query's latent vector $2 by cosine distance, among sessions begun by $3, best
-- first. An exact scan: a space has far fewer sessions than memories.
SELECT 'ev:' || t.seq
FROM latent_topics t
WHERE t.space_id = $1 AND t.occurred_at <= $3
ORDER BY t.vec <=> $2::vector, t.seq
LIMIT $4
