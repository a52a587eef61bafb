-- The space's redaction mode: data.mode of its latest redaction.configured event, no row when
-- it never recorded one (redaction is then on). Read under the chain lock (chain_lock.sql) by
-- appends, so a switch and an append never race. Index events_redaction_configured.
SELECT e.data->>'mode'
FROM events e
WHERE e.space_id = $1 AND e.type = 'redaction.configured'
ORDER BY e.seq DESC
LIMIT 1
