DROP INDEX CONCURRENTLY IF EXISTS events_redaction_configured;
