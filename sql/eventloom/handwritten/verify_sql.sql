-- The verify check done by Postgres itself (see migrations/000002_eventloom.up.sql).
SELECT events, head_seq, head_hash, ok, broken_seq, reason
FROM zaxy_verify($1)
