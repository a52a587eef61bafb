-- name: Stalings :many
-- The events in (@after_seq, @upto_seq] that make an earlier event unusable as a source: a
-- memory.invalidated (the invalidations projection, or a fact it closed by id), an erasure,
-- a fact closed as superseded or retracted. One row per (staling event, target), in seq order.
SELECT s.seq, e.occurred_at, s.target_seq, s.reason::text AS reason
FROM (
  SELECT i.seq, i.target_seq, 'invalidated' AS reason
  FROM invalidations i WHERE i.space_id = @space_id AND i.seq > @after_seq AND i.seq <= @upto_seq
  UNION
  SELECT f.closed_seq, f.recorded_seq,
         CASE WHEN f.status = 'superseded' THEN 'superseded' ELSE 'invalidated' END
  FROM facts f
  WHERE f.space_id = @space_id AND f.status IN ('superseded', 'retracted', 'invalidated')
    AND f.closed_seq > @after_seq AND f.closed_seq <= @upto_seq AND f.recorded_seq < f.closed_seq
  UNION
  SELECT x.seq, (x.data->>'seq')::bigint, 'erased'
  FROM events x
  WHERE x.space_id = @space_id AND x.type = 'erasure.recorded' AND x.seq > @after_seq AND x.seq <= @upto_seq
) s
JOIN events e ON e.space_id = @space_id AND e.seq = s.seq
ORDER BY s.seq, s.target_seq, s.reason;
