-- Whether a text search configuration of that name exists.
SELECT EXISTS (SELECT FROM pg_ts_config WHERE cfgname = $1)
