-- name: WeaveEvidence :many
-- The text of the events a weave shows as evidence (already verified by WeaveSources).
SELECT e.seq, e.hash, e.type, e.content, e.data::text AS data
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY (@seqs::bigint[]);
