-- name: Progress :one
-- How far the space's projection is ($1 space), and how many of its event items are newer
-- than seq $2 (the model's build).
SELECT coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = @space_id), 0)::bigint AS projected_seq,
       (SELECT count(*) FROM memory_items i
        WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND i.kind = 'event' AND i.seq > @built_seq::bigint)::bigint AS newer,
       (SELECT count(*) FROM memory_items i
        WHERE i.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id) AND i.kind = 'event')::bigint AS total;
