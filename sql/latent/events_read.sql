-- name: EventsRead :many
-- The events up to @upto_seq that the producers read: the memory events of the given sessions,
-- and every event of the given types. Bookkeeping (checkout.*, zaxy.*) is never an artifact's
-- source: a long agent session collects a checkout.surfaced record per checkout, and its
-- episode once cited 13,400 of them, which every weave then verified. The sessions' events are
-- read through the partial index of their memory events (migration 000027); the types' only
-- when there are any (the space-wide producers' rebuild), through the partial index of those
-- types (events_space_wide_sources, migration 000041), which the constant list below matches:
-- @types must be among them (latent.globalTypes; TestGlobalTypes_AreTheIndexedOnes).
SELECT e.seq, e.hash, e.type, e.session_id, e.actor, e.occurred_at, e.content, e.data
FROM events e
WHERE e.space_id = @space_id AND e.seq <= @upto_seq
  AND e.session_id = ANY(@sessions::text[]) AND e.session_id <> ''
  AND e.type NOT LIKE 'checkout.%' AND e.type NOT LIKE 'zaxy.%'
UNION
SELECT g.seq, g.hash, g.type, g.session_id, g.actor, g.occurred_at, g.content, g.data
FROM events g
WHERE g.space_id = @space_id AND g.seq <= @upto_seq AND cardinality(@types::text[]) > 0 AND g.type = ANY(@types::text[])
  AND g.type IN ('tool_call.completed', 'preference.stated', 'decision.recorded', 'outcome.recorded')
ORDER BY seq;
