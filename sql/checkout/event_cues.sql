-- name: EventCues :many
-- The cues of events by seq (the checkout's candidates and the events that recorded its
-- candidate facts), those that have any; read from the log by primary key (cues.go).
SELECT e.seq, e.cues
FROM events e
WHERE e.space_id = @space_id AND e.seq = ANY (@seqs::bigint[]) AND e.cues <> '{}'::jsonb;
