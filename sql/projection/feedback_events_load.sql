-- name: FeedbackEventsLoad :many
-- The feedback.recorded events among the earlier events a batch invalidates (seqs) that no
-- earlier invalidation took back already, with their data, so the projector can take back what
-- each reinforced (docs/projections.md, "Reinforcement and salience").
SELECT e.seq, e.data::text AS data
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY (@seqs::bigint[]) AND e.type = 'feedback.recorded'
  AND NOT EXISTS (SELECT FROM invalidations i WHERE i.space_id = e.space_id AND i.target_seq = e.seq)
ORDER BY e.seq;
