-- A space's ($1) memory items by salience, in $2 equal steps of [0, 1] (bucket 1 to $2; values
-- outside are clamped to the end steps), with how many of each are attenuated, from the
-- salience the salience_decay job last materialised. Run only when salience_present.sql says
-- the table exists (sqlc cannot take it: the table is not in every schema this code meets).
SELECT greatest(1, least(width_bucket(d.salience, 0, 1, $2), $2))::integer AS bucket,
       count(*)::bigint AS items,
       count(*) FILTER (WHERE d.attenuated)::bigint AS attenuated
FROM salience_decayed d
WHERE d.space_id = $1
GROUP BY 1
ORDER BY 1
