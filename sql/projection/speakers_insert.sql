-- name: SpeakersInsert :exec
-- Adds the speakers of a batch's events (after_seq < seq <= last_seq) to the space's speaker names: the
-- actor and data.name of each event, lower-cased, counted once per event. The expressions
-- are the ones the exact lane's tail (sql/checkout/handwritten/lane_exact.sql) applies to the events not
-- yet projected, so a name is a speaker whether or not its event is projected yet.
INSERT INTO speaker_names AS s (space_id, name_key, events)
SELECT @space_id::text, lower(v.name), count(DISTINCT e.seq)
FROM events e, LATERAL (VALUES (e.actor), (e.data->>'name')) v (name)
WHERE e.space_id = @space_id AND e.seq > @after_seq::bigint AND e.seq <= @last_seq::bigint AND v.name IS NOT NULL AND v.name <> ''
GROUP BY lower(v.name)
ORDER BY lower(v.name)
ON CONFLICT (space_id, name_key) DO UPDATE SET events = s.events + excluded.events;
