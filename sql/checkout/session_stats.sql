-- Events of a session by type, with the first and last seq and time.
SELECT type, count(*), min(seq), max(seq), min(occurred_at), max(occurred_at)
FROM events
WHERE space_id = $1 AND session_id = $2 AND type NOT LIKE 'checkout.%' AND type NOT LIKE 'zaxy.%'
GROUP BY type
ORDER BY type
