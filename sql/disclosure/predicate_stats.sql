-- How many fact versions with predicate $2 space $1 holds (current ones and all), and the seq
-- range that recorded them.
SELECT count(*) FILTER (WHERE f.status = 'current'), count(*),
       coalesce(min(f.recorded_seq), 0), coalesce(max(f.recorded_seq), 0)
FROM facts f
WHERE f.space_id = $1 AND f.predicate = $2
