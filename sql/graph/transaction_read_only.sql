-- name: TransactionReadOnly :exec
-- Makes the current transaction read-only from here on (Cypher's savepoint in a caller's
-- transaction).
SET TRANSACTION READ ONLY;
