-- Reverses 000024_retrieval_policy.up.sql: checkout ranks with the built-in policy again.
DROP TABLE IF EXISTS retrieval_policy_current;
DROP TABLE IF EXISTS retrieval_policies;
