-- The events behind event items, with the reasons they were invalidated, if any.
SELECT e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.content, e.data::text, e.hash,
       (SELECT string_agg(v.reason, '; ' ORDER BY v.seq) FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq) AS invalidated
FROM events e
WHERE e.space_id = $1 AND e.seq = ANY ($2::bigint[])
