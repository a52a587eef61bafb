-- name: WeaveEvidence :many
-- The text of the events a weave shows as evidence (already verified by WeaveSources), with
-- when they happened and a message's role and speaker as fetch_events.sql reads them (the
-- evidence lines of a checkout asking for who_when open with them).
SELECT e.seq, e.hash, e.type, e.content, e.data::text AS data, e.occurred_at,
  (CASE WHEN e.type = 'message' THEN coalesce(e.data->>'role', '') ELSE '' END)::text AS role,
  coalesce(nullif(e.data->>'name', ''), e.actor, '')::text AS speaker
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY (@seqs::bigint[]);
