-- Topic lane: the first messages of the sessions whose topic vector (latent_topics) is
-- nearest the query's latent vector $2, among sessions begun by $3, best first, with their
-- cosine similarity. An exact scan: a space has far fewer sessions than memories.
SELECT 'ev:' || t.seq, 1 - (t.vec <=> $2::vector) AS similarity
FROM latent_topics t
WHERE t.space_id = $1 AND t.occurred_at <= $3
ORDER BY t.vec <=> $2::vector, t.seq
LIMIT $4
