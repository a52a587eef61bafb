-- The events behind event items, with a message's speaker (data.role, for the speaker prior)
-- and the reasons they were invalidated, if any; rows are eventloom.Row (and role, invalidated).
SELECT e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.content, e.data::text AS data, e.hash,
       CASE WHEN e.type = 'message' THEN coalesce(e.data->>'role', '') ELSE '' END AS role,
       (SELECT string_agg(v.reason, '; ' ORDER BY v.seq) FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq) AS invalidated
FROM events e
WHERE e.space_id = $1 AND e.seq = ANY ($2::bigint[])
