-- The topic model's term vectors in half precision (pgvector's halfvec): they were the largest
-- per-space table, about 730 bytes a term for 143 dimensions, larger than the space's events;
-- half precision halves them. The topic lane sums a query's term vectors and ranks sessions by
-- cosine, which half precision's three significant digits leave as it was (docs/benchmarks.md,
-- "Topic term vectors in half precision"). The SQL that reads and writes them casts to and from
-- vector, so Go keeps pgvector.Vector. A projection: rebuilt from the log like the rest.
ALTER TABLE latent_terms ALTER COLUMN vec TYPE halfvec USING vec::halfvec;
