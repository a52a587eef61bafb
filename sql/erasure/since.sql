-- Whether the space was erased from after seq $2 (an erasure.recorded event past it): a
-- writer that read text when the projection stood at $2 must not store what it derived.
SELECT EXISTS (SELECT FROM events WHERE space_id = $1 AND seq > $2 AND type = 'erasure.recorded')
