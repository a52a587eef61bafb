-- Reverses 000003_projection.up.sql. Projections are derived: zaxy rebuild recreates them.
DROP VIEW IF EXISTS projection_status;
DROP FUNCTION IF EXISTS zaxy_ensure_vector_index(text, integer);
DROP TABLE IF EXISTS embedding_models;
DROP TABLE IF EXISTS vector_spaces;
DROP TABLE IF EXISTS embeddings;
DROP TABLE IF EXISTS memory_items;
DROP TABLE IF EXISTS invalidations;
DROP TABLE IF EXISTS facts;
DROP TABLE IF EXISTS mentions;
DROP TABLE IF EXISTS entities;
DROP TABLE IF EXISTS projection_watermarks;
