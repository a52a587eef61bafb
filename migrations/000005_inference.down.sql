-- Reverses 000005_inference.up.sql.
DROP VIEW IF EXISTS inferred_facts;
DROP TABLE IF EXISTS inferences;
