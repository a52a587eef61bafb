-- Fact versions by id, and the versions they superseded (so a change is never silently
-- dropped), with names and citations; rows are graph.FactRow (and asked). The sal_ columns are
-- the version's salience as of $3, as in fetch_events (its own occurred_at is its memory item's).
-- A version recorded by an erased event whose purge is pending (zaxy_erased_pending, migration
-- 000054) is left out.
SELECT f.fact_id, s.name AS subject_name, f.predicate, o.name AS object_name, f.value::text AS value, f.version,
       f.status, f.superseded_by, f.valid_from, f.valid_to, f.recorded_seq, f.recorded_hash, f.evidence::text AS evidence, f.authority,
       f.review_status, f.inferred, f.close_reason, f.fact_id = ANY ($2::text[]) AS asked,
       zaxy_salience_base(f.authority) AS sal_base,
       coalesce(sa.reinforcement, 1) AS sal_reinforcement,
       zaxy_salience_decay(coalesce(sa.last_use_at, mi.occurred_at), sp.use_started_at, $3::timestamptz,
                           coalesce(sp.half_life_days, 30)) AS sal_decay,
       coalesce(sa.pinned, false) AS sal_pinned,
       coalesce(sa.last_use_at, mi.occurred_at) AS sal_last_use_at,
       sa.last_use_seq AS sal_last_use_seq, sa.last_use_signal AS sal_last_use_signal,
       coalesce(sp.half_life_days, 30) AS sal_half_life_days, coalesce(sp.floor, 0.1) AS sal_floor
FROM facts f
JOIN entities s ON s.space_key = f.space_key AND s.entity_id = f.subject_id
LEFT JOIN entities o ON o.space_key = f.space_key AND o.entity_id = f.object_id
LEFT JOIN memory_items mi ON mi.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND mi.item_id = 'fact:' || f.fact_id
-- LATERAL with LIMIT 1: one primary-key probe per row (a plain join lets the planner hash the
-- space's whole salience table).
LEFT JOIN LATERAL (SELECT x.reinforcement, x.pinned, x.last_use_at, x.last_use_seq, x.last_use_signal FROM salience x
                   WHERE x.space_id = $1 AND x.item_id = 'fact:' || f.fact_id LIMIT 1) sa ON true
LEFT JOIN salience_spaces sp ON sp.space_id = $1
WHERE f.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND (f.fact_id = ANY ($2::text[]) OR f.superseded_by = ANY ($2::text[]))
  AND f.recorded_seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])
