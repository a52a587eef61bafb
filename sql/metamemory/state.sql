-- name: State :one
-- What a feeling-of-knowing answer needs from the database on every call, in one round trip: the
-- space's projection watermark and term totals (the cached sketch is current when they are the
-- ones it was built at) and the query's distinct lexemes under the projector's text search
-- configuration, which only Postgres can compute the same way; and whether the space exists,
-- with its head seq (the answer reports how many events the projection has not reached yet);
-- and whether an erased event's purge is pending (zaxy_erased_pending, migration 000054): the
-- sketch's document frequencies still count its words until then.
SELECT EXISTS (SELECT FROM spaces s WHERE s.space_id = @space_id) AS space_exists,
       coalesce((SELECT s.head_seq FROM spaces s WHERE s.space_id = @space_id), 0)::bigint AS head_seq,
       coalesce((SELECT w.projected_seq FROM projection_watermarks w WHERE w.space_id = @space_id), 0)::bigint AS watermark,
       coalesce((SELECT t.items FROM term_totals t WHERE t.space_id = @space_id), 0)::bigint AS items,
       coalesce((SELECT t.tokens FROM term_totals t WHERE t.space_id = @space_id), 0)::bigint AS tokens,
       coalesce((SELECT array_agg(DISTINCT l.lexeme ORDER BY l.lexeme)
                 FROM unnest(zaxy_path_tsv(@ts_config::regconfig, @query::text)) l), '{}')::text[] AS lexemes,
       (cardinality(zaxy_erased_pending(@space_id)) > 0)::boolean AS erasure_pending;
