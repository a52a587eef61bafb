-- The events behind event items (with their cues, which the cue blend reads: cues.go), with a message's role (data.role) and speaker (data.name, else
-- the actor), for the speaker priors, and the reasons they were invalidated, if any; rows are
-- eventloom.Row (and role, speaker, invalidated, and conflicted: a model inferred from the
-- event a statement that contradicts a current fact, or the event is a typed statement the
-- projector turned into a proposal because it contradicts a pinned or endorsed fact, and the
-- proposal is still open). The sal_
-- columns are the item's salience as of $3 (docs/checkout.md, Salience): its salience row and
-- the space's policy, each one lookup by primary key joined in, never a query per item.
-- redundant_of is the ranked item the encoding gate found the event's item repeats (NULL when
-- ranked, or not projected yet), read through the partial index of redundant items (migration
-- 000026): most events have none, and that probe never visits memory_items' heap. repeats and
-- the repeat_ columns are the other way round: how many items the gate found repeating the
-- event's item (that happened by $3 and are not invalidated; at most 1,000 counted) and the last
-- of them, through the partial index by the item repeated and seq (000047: the last is one probe
-- from the end); an item of the plain profile ignores them. An invalidation by an erased event
-- whose purge is pending (zaxy_erased_pending, migration 000054) gives no reason.
SELECT e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.content, e.data::text AS data, e.cues::text AS cues, e.hash,
       CASE WHEN e.type = 'message' THEN coalesce(e.data->>'role', '') ELSE '' END AS role,
       coalesce(nullif(e.data->>'name', ''), e.actor, '') AS speaker,
       (SELECT string_agg(v.reason, '; ' ORDER BY v.seq) FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq AND v.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])) AS invalidated,
       EXISTS (SELECT FROM proposals p
               WHERE p.space_id = e.space_id AND p.inference_seq = e.seq AND p.contradicts IS NOT NULL
                 AND p.status IN ('pending', 'deferred'))
       OR EXISTS (SELECT FROM proposals p
                  WHERE p.space_id = e.space_id AND p.seq = e.seq AND e.type <> 'proposal.created'
                    AND p.contradicts IS NOT NULL AND p.status IN ('pending', 'deferred')) AS conflicted,
       zaxy_salience_base('log') AS sal_base,
       coalesce(sa.reinforcement, 1) AS sal_reinforcement,
       zaxy_salience_decay(coalesce(sa.last_use_at, e.occurred_at), sp.use_started_at, $3::timestamptz,
                           coalesce(sp.half_life_days, 30)) AS sal_decay,
       coalesce(sa.pinned, false) AS sal_pinned,
       coalesce(sa.last_use_at, e.occurred_at) AS sal_last_use_at,
       sa.last_use_seq AS sal_last_use_seq, sa.last_use_signal AS sal_last_use_signal,
       coalesce(sp.half_life_days, 30) AS sal_half_life_days, coalesce(sp.floor, 0.1) AS sal_floor,
       (SELECT mi.redundant_of FROM memory_items mi
        WHERE mi.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND mi.item_id = 'ev:' || e.seq
          AND mi.redundant_of IS NOT NULL) AS redundant_of,
       rep.n AS repeats, lr.last_seq AS repeat_seq, le.hash AS repeat_hash
FROM events e
-- LATERAL with LIMIT 1: one primary-key probe per row (a plain join lets the planner hash the
-- space's whole salience table).
LEFT JOIN LATERAL (SELECT x.reinforcement, x.pinned, x.last_use_at, x.last_use_seq, x.last_use_signal FROM salience x
                   WHERE x.space_id = e.space_id AND x.item_id = 'ev:' || e.seq LIMIT 1) sa ON true
LEFT JOIN salience_spaces sp ON sp.space_id = e.space_id
LEFT JOIN LATERAL (SELECT count(*) AS n FROM (
                     SELECT FROM memory_items r
                     WHERE r.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1) AND r.redundant_of = 'ev:' || e.seq
                       AND r.occurred_at <= $3::timestamptz
                       AND NOT EXISTS (SELECT FROM invalidations v WHERE v.space_id = $1 AND v.target_seq = r.seq)
                     LIMIT 1000) c) rep ON true
LEFT JOIN LATERAL (SELECT r.seq AS last_seq FROM memory_items r
                   WHERE rep.n > 0 AND r.space_key = (SELECT k.space_key FROM spaces k WHERE k.space_id = $1)
                     AND r.redundant_of = 'ev:' || e.seq AND r.occurred_at <= $3::timestamptz
                     AND NOT EXISTS (SELECT FROM invalidations v WHERE v.space_id = $1 AND v.target_seq = r.seq)
                   ORDER BY r.seq DESC LIMIT 1) lr ON true
LEFT JOIN events le ON le.space_id = e.space_id AND le.seq = lr.last_seq
WHERE e.space_id = $1 AND e.seq = ANY ($2::bigint[])
