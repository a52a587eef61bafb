-- How far the space's projection is ($1 space), and how many of its event items are newer
-- than seq $2 (the model's build).
SELECT coalesce((SELECT projected_seq FROM projection_watermarks WHERE space_id = $1), 0),
       (SELECT count(*) FROM memory_items WHERE space_id = $1 AND kind = 'event' AND seq > $2),
       (SELECT count(*) FROM memory_items WHERE space_id = $1 AND kind = 'event')
