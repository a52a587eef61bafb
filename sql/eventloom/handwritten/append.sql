-- Appends a batch of events to one space, in order. The events_link trigger assigns seq,
-- recorded_at, prev_hash and hash; a NULL occurred_at becomes recorded_at.
INSERT INTO events (space_id, type, session_id, actor, occurred_at, content, data, cues)
SELECT $1, t.type, t.session_id, t.actor, t.occurred_at, t.content, t.data::jsonb, t.cues::jsonb
FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::text[])
  WITH ORDINALITY AS t (type, session_id, actor, occurred_at, content, data, cues, ord)
ORDER BY t.ord
RETURNING seq, hash, prev_hash, recorded_at, occurred_at
