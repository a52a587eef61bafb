DROP INDEX CONCURRENTLY IF EXISTS events_confidence_revisions;
