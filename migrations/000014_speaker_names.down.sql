-- Reverses 000014_speaker_names.up.sql.
DROP TABLE IF EXISTS speaker_names;
