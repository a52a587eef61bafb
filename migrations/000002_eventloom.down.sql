-- Reverses 000002_eventloom.up.sql. This drops the log: only for development databases.
DROP FUNCTION IF EXISTS zaxy_verify(text);
DROP TABLE IF EXISTS idempotency_keys;
DROP TABLE IF EXISTS events;
DROP TABLE IF EXISTS spaces;
DROP FUNCTION IF EXISTS events_head();
DROP FUNCTION IF EXISTS events_link();
DROP FUNCTION IF EXISTS zaxy_event_canonical(text, bigint, text, text, text, timestamptz, timestamptz, text, jsonb, jsonb);
DROP FUNCTION IF EXISTS zaxy_reject_change();
