-- Serializes the retrospective pass of one space and session ($1, $2) for the transaction.
SELECT pg_advisory_xact_lock(hashtextextended('zaxy.retrospective/' || $1 || '/' || $2, 0))
