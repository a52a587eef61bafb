-- Inserts the mentions of a batch.
INSERT INTO mentions (space_id, seq, start_byte, end_byte, entity_id, kind, hash)
SELECT $1, u.seq, u.start_byte, u.end_byte, u.entity_id, u.kind, u.hash
FROM unnest($2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::bytea[])
     AS u (seq, start_byte, end_byte, entity_id, kind, hash)
