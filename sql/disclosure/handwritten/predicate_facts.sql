-- For each predicate in $2, the newest $3 fact versions of space $1 with it, grouped by
-- predicate. One scan of the space's facts ranks every predicate (no index leads with the
-- predicate), sorting only narrow rows; the chosen versions are then fetched by key.
-- Fact versions recorded by an erased event whose purge is pending (zaxy_erased_pending,
-- migration 000054) are left out.
WITH ranked AS (
  SELECT x.fact_id,
         row_number() OVER (PARTITION BY x.predicate ORDER BY x.recorded_seq DESC, x.fact_id) AS rank
  FROM facts x
  WHERE x.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND x.predicate = ANY($2::text[]) AND x.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
)
SELECT f.predicate AS grp, f.fact_id, f.subject_id, s.name AS subject_name, f.predicate, f.object_id, o.name AS object_name,
       f.value::text AS value, f.version, f.valid_from, f.valid_to, f.recorded_seq, f.recorded_hash, f.closed_seq,
       f.status, f.superseded_by, f.authority, f.review_status, f.inferred, f.confidence,
       f.evidence::text AS evidence, f.close_reason
FROM ranked r
JOIN facts f ON f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND f.fact_id = r.fact_id
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
WHERE r.rank <= $3
ORDER BY f.predicate, f.recorded_seq DESC, f.fact_id
