-- The events a recorded checkout (the checkout.surfaced event $3) names, to re-render its
-- packet (checkout/recorded.go): rows are eventloom.Row (an erased event's content and data
-- are the tombstone, erased_by_seq its erasure), with a message's role (data.role) and speaker
-- (data.name, else the actor) as fetch_events reads them, and the reasons the event was
-- invalidated by events before $3, as the checkout's line showed them. An invalidation by an
-- erased event whose purge is pending (zaxy_erased_pending, migration 000054) gives no reason.
SELECT e.space_id, e.seq, e.type, e.session_id, e.actor, e.occurred_at, e.content, e.data::text AS data, e.hash,
       coalesce(e.erased_by_seq, 0) AS erased_by_seq,
       CASE WHEN e.type = 'message' THEN coalesce(e.data->>'role', '') ELSE '' END AS role,
       coalesce(nullif(e.data->>'name', ''), e.actor, '') AS speaker,
       (SELECT string_agg(v.reason, '; ' ORDER BY v.seq) FROM invalidations v
        WHERE v.space_id = e.space_id AND v.target_seq = e.seq AND v.seq < $3
          AND v.seq <> ALL ((SELECT zaxy_erased_pending($1))::bigint[])) AS invalidated
FROM events e
WHERE e.space_id = $1 AND e.seq = ANY ($2::bigint[])
