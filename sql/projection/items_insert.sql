-- Inserts a batch's memory items with their full-text vectors, built with the configured
-- text search configuration ($2).
INSERT INTO memory_items (space_id, item_id, kind, seq, event_type, session_id, occurred_at, text,
                          ts_config, tsv)
SELECT $1, u.item_id, u.kind, u.seq, u.event_type, u.session_id, u.occurred_at, u.text,
       $2::regconfig, to_tsvector($2::regconfig, u.text)
FROM unnest($3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::timestamptz[], $9::text[])
     AS u (item_id, kind, seq, event_type, session_id, occurred_at, text)
