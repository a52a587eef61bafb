-- The highest version so far of each (subject, predicate) pair, one index lookup per pair.
SELECT p.subject_id, p.predicate,
       coalesce((SELECT f.version FROM facts f
                 WHERE f.space_id = $1 AND f.subject_id = p.subject_id AND f.predicate = p.predicate
                 ORDER BY f.version DESC LIMIT 1), 0)
FROM unnest($2::text[], $3::text[]) AS p (subject_id, predicate)
