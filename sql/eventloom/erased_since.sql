-- name: ErasedSince :one
-- Whether the space was erased from after seq @after_seq (an erasure.recorded event past it): a
-- writer that read text when the projection stood at @after_seq must not store what it derived.
SELECT EXISTS (SELECT FROM events WHERE space_id = @space_id AND seq > @after_seq AND type = 'erasure.recorded');
