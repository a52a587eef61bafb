-- name: Events :many
-- A space's events of the given types in seq order: what the policy fit replays
-- (checkout.surfaced, feedback.recorded) and the policy lifecycle (policy.*). Erased events are
-- left out, as the projector passes over their tombstones.
SELECT seq, hash, type, session_id, data
FROM events
WHERE space_id = @space_id AND type = ANY(@types::text[]) AND erased_by_seq IS NULL
ORDER BY seq;
