-- name: Lock :exec
-- Serializes a space's promotions and rollbacks until the transaction ends.
SELECT pg_advisory_xact_lock(hashtextextended('zaxy.policy:' || @space_id::text, 0));
