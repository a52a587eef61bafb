-- Vector lane by exact scan of the space's vectors of the model; %[1]d is its dimension. With
-- $5 (as_of), only items that had occurred by then. The vectors of the items of erased events
-- whose purge is pending (zaxy_erased_pending_items, migration 000054) are left out.
SELECT e.item_id, e.embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS distance
FROM embeddings e
WHERE e.model = $2 AND e.space_id = $1 AND e.item_id <> ALL ((SELECT zaxy_erased_pending_items($1))::text[])
  AND ($5::timestamptz IS NULL OR EXISTS (
        SELECT FROM memory_items i
        WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND i.item_id = e.item_id AND i.occurred_at <= $5))
ORDER BY distance, e.item_id
LIMIT $4
