-- name: InvalidationsInsert :exec
-- Records the events a batch invalidated. Each array is one column of the records, all of one
-- length.
INSERT INTO invalidations (space_id, target_seq, seq, hash, reason)
SELECT @space_id::text, unnest(@target_seqs::bigint[]), unnest(@seqs::bigint[]), unnest(@hashes::bytea[]),
       unnest(@reasons::text[]);
