-- Writes the entities a batch created or changed.
INSERT INTO entities AS t (space_id, entity_id, key, name, kinds, version, first_seq, first_hash,
                           last_seq, mentions, invalidated_seq)
SELECT $1, u.entity_id, u.key, u.name, string_to_array(u.kinds, ','), u.version, u.first_seq,
       u.first_hash, u.last_seq, u.mentions, u.invalidated_seq
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::bigint[], $8::bytea[],
            $9::bigint[], $10::int[], $11::bigint[])
     AS u (entity_id, key, name, kinds, version, first_seq, first_hash, last_seq, mentions, invalidated_seq)
ON CONFLICT (space_id, entity_id) DO UPDATE
SET kinds = excluded.kinds, version = excluded.version, last_seq = excluded.last_seq,
    mentions = excluded.mentions, invalidated_seq = excluded.invalidated_seq
