-- Vector lane of a space promoted to the HNSW index; %[1]d is the model's dimension (the
-- index is on embedding::halfvec(dim) WHERE model = ... AND indexed, so the query names the
-- same expression). Iterative scans (set by the caller) keep going until the space filter
-- has yielded $4 rows. Rows not indexed yet (just promoted) are scanned exactly and merged.
-- With $5 (as_of), only the items that had occurred by then count: a filter on the index
-- scan, so the iterative scan walks on until $4 rows pass it. The filter is a scalar subquery
-- (a key lookup per row walked), not EXISTS, which the planner would hash over the whole space.
-- $3 is the query vector as a pgvector vector; the walk compares it cast to halfvec (element by
-- element, as Postgres would parse halfvec text), the index's type. The rows the walk yields are
-- then ranked by the exact path's distance (vector_exact.sql: the stored vector against the full
-- precision query), so the lane's order and distances are those of exact search over the rows
-- found: a half-precision query breaks near ties at random (0.001 of a component). The vectors of the items of erased events whose purge is
-- pending (zaxy_erased_pending_items, migration 000054) are filtered out as the walk goes.
WITH hits AS MATERIALIZED (
  SELECT item_id, embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS distance
  FROM embeddings
  WHERE model = $2 AND indexed AND space_id = $1 AND item_id <> ALL ((SELECT zaxy_erased_pending_items($1))::text[])
    AND ($5::timestamptz IS NULL OR (
          SELECT i.occurred_at FROM memory_items i
          WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND i.item_id = embeddings.item_id) <= $5)
  ORDER BY embedding::halfvec(%[1]d) <=> $3::vector(%[1]d)::halfvec(%[1]d)
  LIMIT $4
), rest AS (
  SELECT item_id, embedding::vector(%[1]d) <=> $3::vector(%[1]d) AS distance
  FROM embeddings
  WHERE space_id = $1 AND model = $2 AND NOT indexed AND item_id <> ALL ((SELECT zaxy_erased_pending_items($1))::text[])
    AND ($5::timestamptz IS NULL OR (
          SELECT i.occurred_at FROM memory_items i
          WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND i.item_id = embeddings.item_id) <= $5)
  ORDER BY distance
  LIMIT $4
)
SELECT item_id, distance FROM (SELECT * FROM hits UNION ALL SELECT * FROM rest) x
ORDER BY distance, item_id
LIMIT $4
