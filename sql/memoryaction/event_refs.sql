-- name: EventRefs :many
-- The seq, hash, type and erasure of the events of a space with the given seqs, in seq order:
-- what an appended memory action checks its cited evidence against.
SELECT seq, hash, type, (erased_by_seq IS NOT NULL)::boolean AS erased
FROM events
WHERE space_id = @space_id AND seq = ANY (@seqs::bigint[])
ORDER BY seq;
