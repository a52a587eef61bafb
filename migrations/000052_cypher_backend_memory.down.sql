DROP FUNCTION IF EXISTS zaxy_backend_memory(integer);
