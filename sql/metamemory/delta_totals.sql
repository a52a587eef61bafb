-- name: DeltaTotals :one
-- How many memory items, and how many tokens, were projected in (@after, @upto]: a delta applies
-- only when the sketch's totals plus these equal the space's, otherwise the sketch is rebuilt.
SELECT count(*)::bigint AS items, coalesce(sum(i.tsv_len), 0)::bigint AS tokens
FROM memory_items i
WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND i.seq > @after AND i.seq <= @upto;
