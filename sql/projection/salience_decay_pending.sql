-- name: SalienceDecayPending :many
-- Spaces whose memory is in use (salience_spaces.use_started_at) and whose salience was last
-- materialised before @before (or never), in space order.
SELECT sp.space_id
FROM salience_spaces sp
LEFT JOIN salience_decay_runs r ON r.space_id = sp.space_id
WHERE sp.use_started_at IS NOT NULL AND (r.decayed_at IS NULL OR r.decayed_at < @before::timestamptz)
ORDER BY sp.space_id
LIMIT @max_rows;
