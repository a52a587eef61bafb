-- Inserts the fact versions a batch opened (in their final state).
INSERT INTO facts (space_id, fact_id, subject_id, predicate, object_id, value, version, valid_from,
                   valid_to, recorded_seq, recorded_hash, closed_seq, status, superseded_by,
                   authority, inferred, confidence, evidence, close_reason, review_status)
SELECT $1, u.fact_id, u.subject_id, u.predicate, u.object_id, u.value::jsonb, u.version,
       u.valid_from, u.valid_to, u.recorded_seq, u.recorded_hash, u.closed_seq, u.status,
       u.superseded_by, u.authority, u.inferred, u.confidence::real, u.evidence::jsonb, u.close_reason, u.review_status
FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
            $8::timestamptz[], $9::timestamptz[], $10::bigint[], $11::bytea[], $12::bigint[],
            $13::text[], $14::text[], $15::text[], $16::boolean[], $17::float8[], $18::text[], $19::text[], $20::text[])
     AS u (fact_id, subject_id, predicate, object_id, value, version, valid_from, valid_to,
           recorded_seq, recorded_hash, closed_seq, status, superseded_by, authority, inferred,
           confidence, evidence, close_reason, review_status)
