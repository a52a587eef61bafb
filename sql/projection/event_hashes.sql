-- name: EventHashes :many
-- The hashes of a space's events by seq, for the citations of proposals.
SELECT seq, hash FROM events WHERE space_id = @space_id AND seq = ANY (@seqs::bigint[]);
