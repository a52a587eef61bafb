-- name: FactVersions :many
-- The highest version so far of each (subject, predicate) pair, one index lookup per pair; the
-- two arrays are the pairs' columns, of one length.
SELECT p.subject_id::text AS subject_id, p.predicate::text AS predicate,
       coalesce((SELECT f.version FROM facts f
                 WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = @space_id::text) AND f.subject_id = p.subject_id AND f.predicate = p.predicate
                 ORDER BY f.version DESC LIMIT 1), 0)::int AS version
FROM (SELECT unnest(@subject_ids::text[]) AS subject_id, unnest(@predicates::text[]) AS predicate) p;
