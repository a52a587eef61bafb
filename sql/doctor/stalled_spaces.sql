-- name: StalledSpaces :many
-- Spaces whose projection has not passed an event: the event after the watermark (stuck_seq)
-- was recorded more than @stall_seconds ago and the watermark has not moved for as long, or a
-- project_space job of the space is failing (retrying or discarded after its retries), with
-- the latest error. At most 100, in space order.
SELECT s.space_id, (coalesce(w.projected_seq, 0) + 1)::bigint AS stuck_seq,
       e.recorded_at AS stuck_recorded_at,
       coalesce(j.failing, 0)::bigint AS failing_jobs, coalesce(j.last_error, '')::text AS last_error
FROM spaces s
LEFT JOIN projection_watermarks w ON w.space_id = s.space_id
JOIN events e ON e.space_id = s.space_id AND e.seq = coalesce(w.projected_seq, 0) + 1
LEFT JOIN LATERAL (
  SELECT count(*) AS failing, (array_agg(r.errors[array_length(r.errors, 1)]->>'error' ORDER BY r.id DESC))[1] AS last_error
  FROM river_job r
  WHERE r.kind = 'project_space' AND r.args->>'space_id' = s.space_id AND r.state IN ('retryable', 'discarded')
) j ON true
WHERE s.head_seq > coalesce(w.projected_seq, 0)
  AND ((e.recorded_at < now() - make_interval(secs => @stall_seconds::float8)
        AND coalesce(w.updated_at, '-infinity') < now() - make_interval(secs => @stall_seconds::float8))
       OR j.failing > 0)
ORDER BY s.space_id
LIMIT 100;
