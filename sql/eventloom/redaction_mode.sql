-- name: RedactionMode :one
-- The space's redaction mode: data.mode of its latest redaction.configured event ('' when it
-- has none), no row when it never recorded one (redaction is then on, as for any mode but
-- "off"). Read under the chain lock (chain_lock.sql) by appends, so a switch and an append
-- never race. Index events_redaction_configured.
SELECT coalesce(e.data->>'mode', '')::text AS mode
FROM events e
WHERE e.space_id = $1 AND e.type = 'redaction.configured'
ORDER BY e.seq DESC
LIMIT 1;
