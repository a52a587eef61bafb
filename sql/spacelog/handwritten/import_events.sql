-- Inserts a batch of exported events into the space being imported, in order. Inside the import
-- zaxy_import_begin opened, the events_link trigger takes recorded_at, the hash rule, the salt
-- and an erased event's digest from the row and computes seq, prev_hash, the body digest and the
-- hash itself; events_head checks the links. The caller compares the hashes with the file's.
INSERT INTO events (space_id, type, session_id, actor, occurred_at, recorded_at, content, data, cues,
                    hash_version, salt, body_digest, erased_by_seq)
SELECT $1, t.type, t.session_id, t.actor, t.occurred_at, t.recorded_at, t.content, t.data::jsonb, t.cues::jsonb,
       t.hash_version, t.salt, t.body_digest, t.erased_by_seq
FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::text[],
            $9::text[], $10::smallint[], $11::bytea[], $12::bytea[], $13::bigint[])
  WITH ORDINALITY AS t (type, session_id, actor, occurred_at, recorded_at, content, data, cues,
                        hash_version, salt, body_digest, erased_by_seq, ord)
ORDER BY t.ord
RETURNING seq, hash
