DROP INDEX CONCURRENTLY IF EXISTS events_surfaced_weaves;
