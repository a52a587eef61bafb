DROP INDEX CONCURRENTLY IF EXISTS events_space_wide_sources;
