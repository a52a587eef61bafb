-- The events behind event items, with a message's role (data.role) and speaker (data.name, else
-- the actor), for the speaker priors, and the reasons they were invalidated, if any; rows are
-- eventloom.Row (and role, speaker, invalidated, and conflicted: a model inferred from the
-- event a statement that contradicts a current fact, and the proposal is still open).
SELECT e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.content, e.data::text AS data, e.hash,
       CASE WHEN e.type = 'message' THEN coalesce(e.data->>'role', '') ELSE '' END AS role,
       coalesce(nullif(e.data->>'name', ''), e.actor, '') AS speaker,
       (SELECT string_agg(v.reason, '; ' ORDER BY v.seq) FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq) AS invalidated,
       EXISTS (SELECT FROM proposals p
               WHERE p.space_id = e.space_id AND p.inference_seq = e.seq AND p.contradicts IS NOT NULL
                 AND p.status IN ('pending', 'deferred')) AS conflicted
FROM events e
WHERE e.space_id = $1 AND e.seq = ANY ($2::bigint[])
