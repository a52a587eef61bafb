DROP INDEX IF EXISTS facts_closed_by_recorded;
