-- The highest version so far of each (subject, predicate) pair.
SELECT p.subject_id, p.predicate, coalesce(max(f.version), 0)::int
FROM unnest($2::text[], $3::text[]) AS p (subject_id, predicate)
LEFT JOIN facts f ON f.space_id = $1 AND f.subject_id = p.subject_id AND f.predicate = p.predicate
GROUP BY p.subject_id, p.predicate
