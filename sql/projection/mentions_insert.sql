-- name: MentionsInsert :exec
-- Inserts the mentions of a batch. Each array is one column of the mentions, all of one length.
INSERT INTO mentions (space_key, seq, start_byte, end_byte, entity_id, kind)
SELECT (SELECT s.space_key FROM spaces s WHERE s.space_id = @space_id::text), unnest(@seqs::bigint[]), unnest(@start_bytes::int[]), unnest(@end_bytes::int[]),
       unnest(@entity_ids::text[]), unnest(@kinds::text[]);
