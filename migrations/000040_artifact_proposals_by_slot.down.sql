DROP INDEX CONCURRENTLY IF EXISTS events_artifact_proposals;
