-- name: InferPending :many
-- Projected message and document.chunk events of a space that model $2 has not read yet.
SELECT e.seq, e.hash, e.content
FROM events e
JOIN projection_watermarks w ON w.space_id = e.space_id
WHERE e.space_id = @space_id AND e.seq <= w.projected_seq
  AND e.type IN ('message', 'document.chunk') AND e.content <> ''
  AND NOT EXISTS (SELECT FROM inferences i WHERE i.space_id = e.space_id AND i.seq = e.seq AND i.model = @model)
ORDER BY e.seq
LIMIT @max_rows;
