-- Reverses 000063_mentions_hash.up.sql: every mention carries its event's hash again.
ALTER TABLE mentions ADD COLUMN hash bytea;
UPDATE mentions m SET hash = e.hash FROM events e WHERE e.space_id = m.space_id AND e.seq = m.seq;
ALTER TABLE mentions ALTER COLUMN hash SET NOT NULL;
