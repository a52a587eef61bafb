-- The lexemes each speaker of a space used: the (speaker, lexeme) pairs of the event items
-- projected in ($2, $3] of space $1, with how many of those items hold the pair, a speaker
-- being an event's actor or data.name, lower-cased, as speaker_names keeps them
-- (sql/projection/speakers_insert.sql). A whole space's (a sketch's build) runs after
-- build_settings.sql, so its aggregate stays in memory.
SELECT v.name AS speaker, l.lexeme, count(*)::integer AS items
FROM memory_items i
JOIN events e ON e.space_id = $1 AND e.seq = i.seq
CROSS JOIN LATERAL (SELECT DISTINCT lower(n.name) AS name
                    FROM (VALUES (e.actor), (e.data->>'name')) n (name)
                    WHERE n.name IS NOT NULL AND n.name <> '') v
CROSS JOIN LATERAL unnest(i.tsv) l
WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND i.kind = 'event' AND i.seq > $2 AND i.seq <= $3
GROUP BY 1, 2
