-- Reverses 000004_age.up.sql. The graphs are derived; a rebuild recreates them.
DO $$
DECLARE
  g text;
BEGIN
  IF EXISTS (SELECT FROM pg_extension WHERE extname = 'age') THEN
    FOR g IN SELECT graph_name FROM age_graphs LOOP
      PERFORM ag_catalog.drop_graph(g::name, true);
    END LOOP;
  END IF;
END $$;
DROP FUNCTION IF EXISTS zaxy_age_drop(text);
DROP FUNCTION IF EXISTS zaxy_age_sync(text, text[], text[]);
DROP FUNCTION IF EXISTS zaxy_age_graph(text);
DROP TABLE IF EXISTS age_graphs;
ALTER TABLE facts DROP COLUMN IF EXISTS age_edge, DROP COLUMN IF EXISTS age_value_node;
ALTER TABLE entities DROP COLUMN IF EXISTS age_node;
