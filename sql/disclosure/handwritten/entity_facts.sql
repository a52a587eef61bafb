-- For each entity id in $2, the newest $3 fact versions of space $1 with it as subject or
-- object, with how many there are (total), grouped by entity.
-- Fact versions recorded by an erased event whose purge is pending (zaxy_erased_pending,
-- migration 000054) are left out.
SELECT t.id AS grp, f.total, f.fact_id, f.subject_id, s.name AS subject_name, f.predicate, f.object_id, o.name AS object_name,
       f.value::text AS value, f.version, f.valid_from, f.valid_to, f.recorded_seq, f.recorded_hash, f.closed_seq,
       f.status, f.superseded_by, f.authority, f.review_status, f.inferred, f.confidence,
       f.evidence::text AS evidence, f.close_reason
FROM unnest($2::text[]) AS t (id)
CROSS JOIN LATERAL (
  SELECT x.*, count(*) OVER () AS total FROM facts x
  WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND (x.subject_id = t.id OR x.object_id = t.id) AND x.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
  ORDER BY x.recorded_seq DESC, x.fact_id
  LIMIT $3
) f
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
ORDER BY t.id, f.recorded_seq DESC, f.fact_id
