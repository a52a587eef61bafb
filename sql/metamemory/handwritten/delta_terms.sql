-- The lexemes of the memory items projected after a sketch was built ($1 space, seq in ($2, $3]),
-- with how many of those items hold each: what to add to the sketch's document frequencies.
SELECT l.lexeme, count(*)::integer AS df
FROM memory_items i, unnest(i.tsv) l
WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND i.seq > $2 AND i.seq <= $3
GROUP BY l.lexeme
