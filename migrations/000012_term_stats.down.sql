-- Reverses 000012_term_stats.up.sql.
DROP TABLE IF EXISTS term_totals;
DROP TABLE IF EXISTS term_stats;
ALTER TABLE memory_items DROP COLUMN IF EXISTS tsv_len;
DROP FUNCTION IF EXISTS zaxy_tsv_length(tsvector);
