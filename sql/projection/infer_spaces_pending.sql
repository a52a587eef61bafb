-- name: InferSpacesPending :many
-- Spaces with projected message or document.chunk events that model $1 has not read yet.
SELECT DISTINCT e.space_id
FROM events e
JOIN projection_watermarks w ON w.space_id = e.space_id AND e.seq <= w.projected_seq
WHERE e.type IN ('message', 'document.chunk') AND e.content <> ''
  AND NOT EXISTS (SELECT FROM inferences i WHERE i.space_id = e.space_id AND i.seq = e.seq AND i.model = @model)
ORDER BY e.space_id
LIMIT @max_rows;
