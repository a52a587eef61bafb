-- name: ChainLock :exec
-- Takes the space's chain lock: the advisory lock events_link takes on a space's first insert
-- in a transaction (migrations/000002_eventloom.up.sql), held until commit.
SELECT pg_advisory_xact_lock(1517840761, hashtext(@space_id::text));
