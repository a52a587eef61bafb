-- Reverses 000016_salience.up.sql.
DROP FUNCTION IF EXISTS zaxy_salience_decay(timestamptz, timestamptz, timestamptz, double precision);
DROP FUNCTION IF EXISTS zaxy_salience_reinforcement(integer, integer, integer, integer, integer, integer);
DROP FUNCTION IF EXISTS zaxy_salience_base(text);
DROP TABLE IF EXISTS salience_decay_runs;
DROP TABLE IF EXISTS salience_decayed;
DROP TABLE IF EXISTS salience_spaces;
DROP TABLE IF EXISTS salience;
DROP TABLE IF EXISTS reinforcements;
