#!/usr/bin/env bash
# Provides a PostgreSQL 17 with pgvector and Apache AGE for Zaxy, and prints, as its last line,
# ZAXY_DATABASE_URL=<url> (the application role). The line before it is
# ZAXY_ADMIN_DATABASE_URL=<url> (a superuser, for migrations and tests).
#
#   testcontainers/postgres.sh start   # idempotent: build once, start if not running
#   testcontainers/postgres.sh stop    # stop the cluster cleanly
#   testcontainers/postgres.sh status
#
# An existing ZAXY_DATABASE_URL is used as is (nothing is built or started). Otherwise, on Linux
# as root, a Debian trixie root filesystem with the packages is built once under
# ZAXY_PG_CACHE (default /var/cache/zaxy/pg17-trixie, outside any clone, so later runs and
# clones reuse it) and a cluster is started in it on 127.0.0.1:ZAXY_PG_PORT (default 54329).
set -euo pipefail

CACHE=${ZAXY_PG_CACHE:-/var/cache/zaxy/pg17-trixie}
ROOTFS="$CACHE/rootfs"
PORT=${ZAXY_PG_PORT:-54329}
PGBIN=/usr/lib/postgresql/17/bin
PGDATA=/var/lib/postgresql/zaxy-data
PGLOG=/var/lib/postgresql/zaxy.log
MIRROR=${ZAXY_DEBIAN_MIRROR:-}
APP_URL="postgres://zaxy:zaxy@127.0.0.1:$PORT/zaxy?sslmode=disable"
ADMIN_URL="postgres://postgres:postgres@127.0.0.1:$PORT/zaxy?sslmode=disable"

die() { echo "zaxy-db: $*" >&2; exit 1; }
log() { echo "zaxy-db: $*" >&2; }

in_root() { chroot "$ROOTFS" "$@"; }
as_postgres() { chroot --userspec=postgres:postgres "$ROOTFS" env HOME=/var/lib/postgresql "$@"; }

check_prereqs() {
  [ "$(uname -s)" = Linux ] || die "needs Linux to build the local PostgreSQL; elsewhere run the Dockerfile in testcontainers/ and export ZAXY_DATABASE_URL (see README)"
  [ "$(id -u)" = 0 ] || die "needs root to build and start the local PostgreSQL (chroot); run as root, or export ZAXY_DATABASE_URL pointing at a PostgreSQL 17 with pgvector"
  mkdir -p "$CACHE" 2>/dev/null || die "cannot create $CACHE; set ZAXY_PG_CACHE to a writable directory"
  local avail
  avail=$(df -Pk "$CACHE" | awk 'NR==2 {print $4}')
  if [ ! -x "$ROOTFS$PGBIN/postgres" ] && [ "${avail:-0}" -lt 1048576 ]; then
    die "less than 1 GiB free under $CACHE; free some disk or set ZAXY_PG_CACHE to a larger filesystem"
  fi
}

ensure_debootstrap() {
  command -v debootstrap >/dev/null 2>&1 && return 0
  log "installing debootstrap"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } >&2; then
    die "debootstrap is missing and could not be installed; run 'apt-get install debootstrap' or export ZAXY_DATABASE_URL"
  fi
}

build_rootfs() {
  [ -x "$ROOTFS$PGBIN/postgres" ] && [ -f "$CACHE/.complete" ] && return 0
  ensure_debootstrap
  log "building the Debian trixie root filesystem with PostgreSQL 17, pgvector and AGE in $ROOTFS (once)"
  rm -rf "$ROOTFS" "$CACHE/.complete"
  local args=(--variant=minbase --include=postgresql-17,postgresql-17-pgvector,postgresql-17-age trixie "$ROOTFS")
  [ -n "$MIRROR" ] && args+=("$MIRROR")
  if ! debootstrap "${args[@]}" >"$CACHE/debootstrap.log" 2>&1; then
    tail -n 5 "$CACHE/debootstrap.log" >&2
    die "debootstrap failed (log: $CACHE/debootstrap.log); check the network to the Debian mirror and free disk"
  fi
  touch "$CACHE/.complete"
}

# Lets any role LOAD '$libdir/plugins/age', which cypher() needs in each session: preloading
# AGE instead would break every database that has not created the extension.
age_plugin() {
  local lib=/usr/lib/postgresql/17/lib
  [ -e "$ROOTFS$lib/age.so" ] || return 0
  mkdir -p "$ROOTFS$lib/plugins"
  ln -sf ../age.so "$ROOTFS$lib/plugins/age.so"
}

mount_pseudo() {
  mountpoint -q "$ROOTFS/proc" || mount --bind /proc "$ROOTFS/proc"
  mkdir -p "$ROOTFS/dev/shm"
  mountpoint -q "$ROOTFS/dev/shm" || mount -t tmpfs -o mode=1777 tmpfs "$ROOTFS/dev/shm"
}

running() {
  [ -d "$ROOTFS$PGDATA" ] && as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1
}

port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null
}

init_cluster() {
  [ -f "$ROOTFS$PGDATA/PG_VERSION" ] && return 0
  log "initializing the cluster"
  in_root install -d -o postgres -g postgres "$PGDATA" /var/run/postgresql
  echo postgres >"$ROOTFS/tmp/zaxy-pwfile"
  chmod 644 "$ROOTFS/tmp/zaxy-pwfile"
  as_postgres "$PGBIN/initdb" -D "$PGDATA" -E UTF8 --locale=C.UTF-8 -U postgres \
    --pwfile=/tmp/zaxy-pwfile --auth-local=trust --auth-host=scram-sha-256 >&2
  rm -f "$ROOTFS/tmp/zaxy-pwfile"
  cat >>"$ROOTFS$PGDATA/postgresql.conf" <<'CONF'
# Zaxy local development settings
max_connections = 200
shared_buffers = 256MB
unix_socket_directories = '/var/run/postgresql'
CONF
}

start_cluster() {
  if running; then return 0; fi
  if port_busy; then
    die "port $PORT on 127.0.0.1 is already in use by another program; set ZAXY_PG_PORT to a free port"
  fi
  in_root install -d -o postgres -g postgres /var/run/postgresql
  log "starting PostgreSQL on 127.0.0.1:$PORT"
  if ! as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGLOG" -w -t 60 \
    -o "-p $PORT -c listen_addresses=127.0.0.1" start >&2 9>&-; then
    tail -n 20 "$ROOTFS$PGLOG" >&2 || true
    die "PostgreSQL did not start (log: $ROOTFS$PGLOG)"
  fi
}

psql_admin() {
  as_postgres "$PGBIN/../bin/psql" -X -q -v ON_ERROR_STOP=1 -h /var/run/postgresql -p "$PORT" -U postgres "$@"
}

bootstrap_roles() {
  psql_admin -d postgres >&2 <<'SQL'
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy_app') THEN
    CREATE ROLE zaxy_app NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zaxy') THEN
    CREATE ROLE zaxy LOGIN PASSWORD 'zaxy' IN ROLE zaxy_app;
  END IF;
END $$;
SELECT 'CREATE DATABASE zaxy' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'zaxy')
\gexec
SQL
}

start() {
  if [ -n "${ZAXY_DATABASE_URL:-}" ]; then
    echo "ZAXY_ADMIN_DATABASE_URL=${ZAXY_ADMIN_DATABASE_URL:-$ZAXY_DATABASE_URL}"
    echo "ZAXY_DATABASE_URL=$ZAXY_DATABASE_URL"
    return 0
  fi
  check_prereqs
  exec 9>"$CACHE/.lock"
  flock 9
  build_rootfs
  age_plugin
  mount_pseudo
  init_cluster
  start_cluster
  bootstrap_roles
  echo "ZAXY_ADMIN_DATABASE_URL=$ADMIN_URL"
  echo "ZAXY_DATABASE_URL=$APP_URL"
}

stop() {
  if [ -n "${ZAXY_DATABASE_URL:-}" ]; then
    log "ZAXY_DATABASE_URL is set: that database is not ours to stop"
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "needs root to stop the local PostgreSQL"
  if [ ! -d "$ROOTFS" ]; then log "no local PostgreSQL has been built"; return 0; fi
  exec 9>"$CACHE/.lock"
  flock 9
  if running; then
    as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w stop >&2
    log "stopped"
  else
    log "not running"
  fi
  mountpoint -q "$ROOTFS/dev/shm" && umount "$ROOTFS/dev/shm" || true
  mountpoint -q "$ROOTFS/proc" && umount "$ROOTFS/proc" || true
}

status() {
  if [ -n "${ZAXY_DATABASE_URL:-}" ]; then echo "external: ZAXY_DATABASE_URL is set"; return 0; fi
  if running; then echo "running on 127.0.0.1:$PORT"; else echo "not running"; exit 1; fi
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) die "usage: $0 start|stop|status" ;;
esac
