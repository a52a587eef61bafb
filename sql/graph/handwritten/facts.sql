-- Facts of a space, optionally about one entity (as subject or object), in one of three views:
-- 'current' (open versions valid now), 'at' (versions whose validity window contains $4,
-- invalidated ones excluded) or 'as_of' (what memory said right after seq $5 was recorded).
-- status_then is the version's status in that view. Versions recorded by an erased event whose
-- purge is pending (zaxy_erased_pending, migration 000054) are left out.
SELECT f.fact_id, f.subject_id, s.name AS subject_name, f.predicate, f.object_id, o.name AS object_name,
       f.value::text AS value, f.version,
       f.valid_from, f.valid_to, f.recorded_seq, f.recorded_hash, f.closed_seq,
       CASE WHEN $3 = 'as_of' AND (f.closed_seq IS NULL OR f.closed_seq > $5) THEN 'current'
            ELSE f.status END AS status_then,
       f.status, f.superseded_by, f.authority, f.review_status, f.inferred, f.confidence,
       f.evidence::text AS evidence, f.close_reason
FROM facts f
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  AND ($2 = '' OR f.subject_id = $2 OR f.object_id = $2)
  AND CASE $3
        WHEN 'current' THEN f.status = 'current' AND (f.valid_to IS NULL OR f.valid_to > $4)
        WHEN 'at' THEN f.status <> 'invalidated' AND f.valid_from <= $4 AND (f.valid_to IS NULL OR f.valid_to > $4)
        WHEN 'as_of' THEN f.recorded_seq <= $5 AND (f.closed_seq IS NULL OR f.closed_seq > $5)
      END
ORDER BY s.name, f.predicate, f.version, f.fact_id
LIMIT $6
