-- name: Events :many
-- A space's events of the given types in seq order: what the policy fit replays
-- (checkout.surfaced, feedback.recorded) and the policy lifecycle (policy.*). Erased events
-- keep their type; their data is a tombstone the readers pass over.
SELECT seq, hash, type, session_id, data
FROM events
WHERE space_id = @space_id AND type = ANY(@types::text[])
ORDER BY seq;
