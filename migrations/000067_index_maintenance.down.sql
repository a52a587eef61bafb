DROP FUNCTION zaxy_drop_failed_rebuild(regclass);

DO $$
DECLARE
  t text;
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    RETURN;
  END IF;
  FOR t IN
    SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname NOT LIKE 'river\_%'
    ORDER BY c.relname
  LOOP
    EXECUTE format('REVOKE MAINTAIN ON public.%I FROM zaxy_app', t);
  END LOOP;
END $$;
