-- name: SalienceHistogram :many
-- A space's memory items by salience, in @buckets equal steps of [0, 1] (bucket 1 to @buckets;
-- values outside are clamped to the end steps), with how many of each are attenuated, from the
-- salience the salience_decay job last materialised (salience_decayed).
SELECT greatest(1, least(width_bucket(d.salience, 0, 1, @buckets::integer), @buckets::integer))::integer AS bucket,
       count(*)::bigint AS items,
       count(*) FILTER (WHERE d.attenuated)::bigint AS attenuated
FROM salience_decayed d
WHERE d.space_id = @space_id
GROUP BY 1
ORDER BY 1;
