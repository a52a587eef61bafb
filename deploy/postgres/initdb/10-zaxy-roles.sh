#!/bin/sh
# Runs once, when the official image's entrypoint initializes an empty data directory: creates
# zaxy_app (the privileges migrations grant, docs/operations.md "Roles") and the login zaxy, a
# member of it, with the password ZAXY_DB_PASSWORD. `zaxy migrate` runs as the superuser and
# `zaxy serve` as zaxy.
set -eu
: "${ZAXY_DB_PASSWORD:?set ZAXY_DB_PASSWORD, the password of the role zaxy logs in as}"
psql -v ON_ERROR_STOP=1 -v pw="$ZAXY_DB_PASSWORD" --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    CREATE ROLE zaxy_app NOLOGIN;
  END IF;
END $$;
CREATE ROLE zaxy LOGIN IN ROLE zaxy_app;
ALTER ROLE zaxy PASSWORD :'pw';
SQL
