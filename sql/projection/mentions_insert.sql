-- name: MentionsInsert :exec
-- Inserts the mentions of a batch. Each array is one column of the mentions, all of one length.
INSERT INTO mentions (space_id, seq, start_byte, end_byte, entity_id, kind)
SELECT @space_id::text, unnest(@seqs::bigint[]), unnest(@start_bytes::int[]), unnest(@end_bytes::int[]),
       unnest(@entity_ids::text[]), unnest(@kinds::text[]);
