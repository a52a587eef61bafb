-- name: SketchTerms :many
-- Every lexeme of a space with its document frequency (term_stats, kept by the projector), most
-- frequent first: the sketch keeps the head exactly and the tail, the rarest, in a Bloom filter.
SELECT lexeme, df FROM term_stats
WHERE space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id)
ORDER BY df DESC, lexeme;
