-- Reverses 000020_gate.up.sql.
DROP VIEW IF EXISTS memory.salience;
DROP FUNCTION IF EXISTS zaxy_salience_reinforcement(integer, integer, integer, integer, integer, integer, integer);
ALTER TABLE salience DROP COLUMN IF EXISTS repeated;
DELETE FROM reinforcements WHERE signal = 'repeated';
ALTER TABLE reinforcements DROP CONSTRAINT IF EXISTS reinforcements_signal;
ALTER TABLE reinforcements ADD CONSTRAINT reinforcements_signal CHECK (signal IN
  ('surfaced', 'recalled', 'helpful', 'unhelpful', 'wrong', 'outdated', 'invalidated', 'pinned', 'unpinned'));
DROP TABLE IF EXISTS gate_spaces;
DROP TABLE IF EXISTS gate_keys;
ALTER TABLE memory_items DROP COLUMN IF EXISTS redundant_of;
