-- Reverses 000007_tokens.up.sql.
DROP TABLE IF EXISTS api_tokens;
