-- Records the events a batch invalidated.
INSERT INTO invalidations (space_id, target_seq, seq, hash, reason)
SELECT $1, u.target_seq, u.seq, u.hash, u.reason
FROM unnest($2::bigint[], $3::bigint[], $4::bytea[], $5::text[]) AS u (target_seq, seq, hash, reason)
