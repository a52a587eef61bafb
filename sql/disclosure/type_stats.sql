-- How many events of type $2 space $1 holds, and their seq range.
SELECT count(*), coalesce(min(e.seq), 0), coalesce(max(e.seq), 0)
FROM events e
WHERE e.space_id = $1 AND e.type = $2
