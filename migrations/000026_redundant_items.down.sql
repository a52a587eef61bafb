DROP INDEX CONCURRENTLY IF EXISTS memory_items_redundant;
