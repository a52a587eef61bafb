-- The events of space $1 with the seqs $2: those the session's surfaced items cite.
SELECT e.seq, e.type, e.actor, e.content, e.data::text AS data
FROM events e
WHERE e.space_id = $1 AND e.seq = ANY ($2::bigint[])
ORDER BY e.seq
