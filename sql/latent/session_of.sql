-- name: SessionsOf :many
-- The sessions of the given events.
SELECT DISTINCT session_id FROM events WHERE space_id = @space_id AND seq = ANY(@seqs::bigint[]) ORDER BY session_id;
