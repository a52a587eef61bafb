-- How many events session $2 of space $1 holds (bookkeeping left out), and their seq range.
SELECT count(*), coalesce(min(e.seq), 0), coalesce(max(e.seq), 0)
FROM events e
WHERE e.space_id = $1 AND e.session_id = $2 AND e.session_id <> ''
  AND NOT starts_with(e.type, 'checkout.') AND NOT starts_with(e.type, 'zaxy.')
