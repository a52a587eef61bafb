-- Reverses 000006_analyst_views.up.sql (the role stays: it may own grants elsewhere).
DROP SCHEMA IF EXISTS memory CASCADE;
