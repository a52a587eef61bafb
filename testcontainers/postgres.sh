#!/usr/bin/env bash
# Provides PostgreSQL 17 clusters with pgvector and Apache AGE for Zaxy: the default cluster, more
# independent clusters ("instances"), and streaming standbys of any of them. `start` prints, as
# its last line, ZAXY_DATABASE_URL=<url> (the application role); the line before it is
# ZAXY_ADMIN_DATABASE_URL=<url> (a superuser, for migrations and tests). `replica start` prints
# ZAXY_REPLICA_ADMIN_URL=<url> and, last, ZAXY_REPLICA_URL=<url> (the application role).
#
#   testcontainers/postgres.sh start            # idempotent: build once, init once, start if not running
#   testcontainers/postgres.sh stop             # stop the cluster cleanly
#   testcontainers/postgres.sh status
#   testcontainers/postgres.sh remove           # a named instance only: stop it and delete its data
#                                               # (a standby: and drop its slot on the primary)
#   testcontainers/postgres.sh replica start    # idempotent: a streaming standby of the cluster
#   testcontainers/postgres.sh replica stop|status|remove
#
# An existing ZAXY_DATABASE_URL is used as is by `start` of the default cluster (nothing is
# built or started). Otherwise, on Linux as root, a Debian trixie root filesystem with the
# packages is built once under ZAXY_PG_CACHE (default /var/cache/zaxy/pg17-trixie, outside any
# clone, so later runs and clones reuse it) and clusters run in it with chroot:
#
#   - the default cluster: /var/lib/postgresql/zaxy-data (log zaxy.log beside it) on
#     127.0.0.1:ZAXY_PG_PORT (default 54329);
#   - ZAXY_PG_INSTANCE=<name>: an independent cluster in /var/lib/postgresql/zaxy-<name>-data
#     (log zaxy-<name>.log) on 127.0.0.1:ZAXY_PG_PORT, which its first start needs and which
#     the instance remembers (its postgresql.conf); ZAXY_DATABASE_URL is ignored;
#   - `replica ...`: a standby of the default cluster (or of ZAXY_PG_INSTANCE's), itself an
#     instance named ZAXY_PG_REPLICA (default `replica`, or `<instance>-replica`) on
#     127.0.0.1:ZAXY_REPLICA_PORT (default 25432 on its first start, then remembered), made by
#     pg_basebackup -R with a replication slot zaxy_<name> on the primary, hot_standby on, and
#     recovery_min_apply_delay = ZAXY_REPLICA_APPLY_DELAY when that is set (e.g. 2s; 0 clears).
#     A missing primary is started first. `replica stop` keeps the slot, so the standby catches
#     up when started again (the primary keeps at most max_slot_wal_keep_size of WAL for it);
#     `replica remove` drops the slot and deletes the standby.
#
# Paths are inside the root filesystem. ZAXY_PG_OPTIONS adds server options to this start only,
# ZAXY_PG_INITDB_OPTIONS options to a new cluster's initdb and ZAXY_PG_BASEBACKUP_OPTIONS to a
# new standby's pg_basebackup (the tests' throwaway clusters use "-c fsync=off
# -c shared_buffers=32MB ..." and "--no-sync" for both). All commands are serialized by flock
# on $ZAXY_PG_CACHE/.lock.
set -euo pipefail

CACHE=${ZAXY_PG_CACHE:-/var/cache/zaxy/pg17-trixie}
ROOTFS="$CACHE/rootfs"
PGBIN=/usr/lib/postgresql/17/bin
PGHOME=/var/lib/postgresql
MIRROR=${ZAXY_DEBIAN_MIRROR:-}
DEFAULT_PORT=54329
DEFAULT_REPLICA_PORT=25432

die() { echo "zaxy-db: $*" >&2; exit 1; }
log() { echo "zaxy-db: $*" >&2; }

in_root() { chroot "$ROOTFS" "$@"; }
as_postgres() { chroot --userspec=postgres:postgres "$ROOTFS" env HOME=$PGHOME "$@"; }

valid_name() { [[ "$1" =~ ^[a-z0-9][a-z0-9_-]{0,39}$ ]]; }

# use_instance NAME selects the instance the other functions act on (empty: the default
# cluster) and sets NAME, PGDATA, PGLOG and PORT (empty when it cannot be known yet).
use_instance() {
  NAME=$1
  if [ -z "$NAME" ]; then
    PGDATA=$PGHOME/zaxy-data
    PGLOG=$PGHOME/zaxy.log
  else
    valid_name "$NAME" || die "instance name '$NAME' must be 1-40 of a-z, 0-9, '-' and '_', starting with a letter or digit"
    PGDATA=$PGHOME/zaxy-$NAME-data
    PGLOG=$PGHOME/zaxy-$NAME.log
  fi
  PORT=$(running_port)
  if [ -z "$PORT" ]; then
    if [ -z "$NAME" ]; then PORT=$DEFAULT_PORT; else PORT=$(remembered_port); fi
  fi
}

label() { if [ -z "$NAME" ]; then echo "the default cluster"; else echo "instance $NAME"; fi; }

admin_url() { echo "postgres://postgres:postgres@127.0.0.1:$PORT/zaxy?sslmode=disable"; }
app_url() { echo "postgres://zaxy:zaxy@127.0.0.1:$PORT/zaxy?sslmode=disable"; }

# running_port prints the port the selected instance runs on (from postmaster.pid), if it runs.
running_port() {
  running || return 0
  sed -n 4p "$ROOTFS$PGDATA/postmaster.pid" 2>/dev/null || true
}

# remembered_port prints the port a named instance was last started on (its postgresql.conf).
remembered_port() {
  { sed -n 's/^port = \([0-9]*\).*/\1/p' "$ROOTFS$PGDATA/postgresql.conf" 2>/dev/null || true; } | tail -n 1
}

# remember_port writes PORT into a named instance's postgresql.conf (the last port line wins).
remember_port() {
  [ -n "$NAME" ] || return 0
  [ "$(remembered_port)" = "$PORT" ] && return 0
  echo "port = $PORT  # zaxy: the instance's port" >>"$ROOTFS$PGDATA/postgresql.conf"
}

# want_port applies a requested port (ZAXY_PG_PORT, or $1) to the selected instance.
want_port() {
  local want=$1
  [ -n "$want" ] || return 0
  [[ "$want" =~ ^[0-9]+$ ]] && [ "$want" -ge 1 ] && [ "$want" -le 65535 ] || die "port '$want' is not a TCP port"
  if running && [ "$PORT" != "$want" ]; then
    die "$(label) already runs on 127.0.0.1:$PORT, not $want; stop it first or leave the port unset"
  fi
  PORT=$want
}

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

lock() {
  exec 9>"$CACHE/.lock"
  flock 9
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

# umount_pseudo unmounts /proc and /dev/shm once no cluster in the root filesystem runs.
umount_pseudo() {
  local d
  for d in "$ROOTFS$PGHOME"/zaxy-data "$ROOTFS$PGHOME"/zaxy-*-data; do
    [ -d "$d" ] || continue
    as_postgres "$PGBIN/pg_ctl" -D "${d#"$ROOTFS"}" status >/dev/null 2>&1 && return 0
  done
  mountpoint -q "$ROOTFS/dev/shm" && umount "$ROOTFS/dev/shm" || true
  mountpoint -q "$ROOTFS/proc" && umount "$ROOTFS/proc" || true
}

running() {
  [ -d "$ROOTFS$PGDATA" ] && as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1
}

port_busy() {
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null
}

init_cluster() {
  [ -f "$ROOTFS$PGDATA/PG_VERSION" ] && return 0
  log "initializing $(label)"
  in_root install -d -o postgres -g postgres "$PGDATA" /var/run/postgresql
  echo postgres >"$ROOTFS/tmp/zaxy-pwfile"
  chmod 644 "$ROOTFS/tmp/zaxy-pwfile"
  as_postgres "$PGBIN/initdb" -D "$PGDATA" -E UTF8 --locale=C.UTF-8 -U postgres \
    --pwfile=/tmp/zaxy-pwfile --auth-local=trust --auth-host=scram-sha-256 ${ZAXY_PG_INITDB_OPTIONS:-} >&2
  rm -f "$ROOTFS/tmp/zaxy-pwfile"
  # initdb's defaults already serve standbys: wal_level replica, max_wal_senders 10,
  # max_replication_slots 10, and pg_hba.conf's "host replication all 127.0.0.1/32".
  cat >>"$ROOTFS$PGDATA/postgresql.conf" <<'CONF'
# Zaxy local development settings
max_connections = 200
shared_buffers = 256MB
unix_socket_directories = '/var/run/postgresql'
# A replication slot whose standby is gone keeps at most this much WAL.
max_slot_wal_keep_size = 2GB
CONF
}

need_port() {
  [ -n "$PORT" ] || die "$(label) has no port yet; set ${1:-ZAXY_PG_PORT} (a free port below 32768, e.g. 25433)"
}

# start_cluster starts the selected instance unless it runs.
start_cluster() {
  if running; then return 0; fi
  need_port
  if port_busy; then
    die "port $PORT on 127.0.0.1 is already in use by another program; set ZAXY_PG_PORT to a free port"
  fi
  remember_port
  in_root install -d -o postgres -g postgres /var/run/postgresql
  log "starting PostgreSQL ($(label)) on 127.0.0.1:$PORT"
  if ! as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGLOG" -w -t 60 \
    -o "-p $PORT -c listen_addresses=127.0.0.1 ${ZAXY_PG_OPTIONS:-}" start >&2 9>&-; then
    tail -n 20 "$ROOTFS$PGLOG" >&2 || true
    die "PostgreSQL did not start (log: $ROOTFS$PGLOG)"
  fi
}

stop_cluster() {
  local mode=${1:-fast}
  if running; then
    as_postgres "$PGBIN/pg_ctl" -D "$PGDATA" -m "$mode" -w -t 120 stop >&2
    log "stopped $(label)"
  else
    log "$(label) is not running"
  fi
}

psql_admin() {
  as_postgres "$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h /var/run/postgresql -p "$PORT" -U postgres "$@"
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

# provision builds what is missing and starts the selected instance (called under the lock).
provision() {
  build_rootfs
  age_plugin
  mount_pseudo
  init_cluster
  start_cluster
}

start() {
  if [ -z "${ZAXY_PG_INSTANCE:-}" ] && [ -n "${ZAXY_DATABASE_URL:-}" ]; then
    echo "ZAXY_ADMIN_DATABASE_URL=${ZAXY_ADMIN_DATABASE_URL:-$ZAXY_DATABASE_URL}"
    echo "ZAXY_DATABASE_URL=$ZAXY_DATABASE_URL"
    return 0
  fi
  check_prereqs
  lock
  use_instance "${ZAXY_PG_INSTANCE:-}"
  want_port "${ZAXY_PG_PORT:-}"
  need_port
  provision
  bootstrap_roles
  echo "ZAXY_ADMIN_DATABASE_URL=$(admin_url)"
  echo "ZAXY_DATABASE_URL=$(app_url)"
}

stop() {
  if [ -z "${ZAXY_PG_INSTANCE:-}" ] && [ -n "${ZAXY_DATABASE_URL:-}" ]; then
    log "ZAXY_DATABASE_URL is set: that database is not ours to stop"
    return 0
  fi
  [ "$(id -u)" = 0 ] || die "needs root to stop the local PostgreSQL"
  if [ ! -d "$ROOTFS" ]; then log "no local PostgreSQL has been built"; return 0; fi
  lock
  use_instance "${ZAXY_PG_INSTANCE:-}"
  stop_cluster fast
  umount_pseudo
}

status() {
  if [ -z "${ZAXY_PG_INSTANCE:-}" ] && [ -n "${ZAXY_DATABASE_URL:-}" ]; then echo "external: ZAXY_DATABASE_URL is set"; return 0; fi
  use_instance "${ZAXY_PG_INSTANCE:-}"
  if ! running; then echo "not running"; exit 1; fi
  if [ -f "$ROOTFS$PGDATA/standby.signal" ]; then
    echo "running on 127.0.0.1:$PORT (a standby; replayed up to $(psql_admin -d postgres -Atc 'SELECT pg_last_wal_replay_lsn()'))"
  else
    echo "running on 127.0.0.1:$PORT"
  fi
}

# remove stops a named instance at once and deletes its data and log (a standby's slot on its
# primary too).
remove() {
  [ -n "${ZAXY_PG_INSTANCE:-}" ] || die "remove deletes a named instance (ZAXY_PG_INSTANCE); delete the default cluster's data by hand"
  [ "$(id -u)" = 0 ] || die "needs root to remove a local PostgreSQL instance"
  if [ ! -d "$ROOTFS" ]; then log "no local PostgreSQL has been built"; return 0; fi
  lock
  use_instance "$ZAXY_PG_INSTANCE"
  remove_instance
  umount_pseudo
}

remove_instance() {
  local slot_port
  slot_port=$(standby_slot)
  stop_cluster immediate
  if [ -n "$slot_port" ]; then drop_slot $slot_port; fi
  rm -rf "${ROOTFS:?}$PGDATA" "${ROOTFS:?}$PGLOG"
  log "removed $(label)"
}

# standby_slot prints "<slot> <primary port>" when the selected instance is a standby streaming
# through a slot (from what pg_basebackup -R wrote).
standby_slot() {
  local auto="$ROOTFS$PGDATA/postgresql.auto.conf" slot pport
  [ -f "$ROOTFS$PGDATA/standby.signal" ] && [ -f "$auto" ] || return 0
  slot=$({ sed -n "s/^primary_slot_name = '\([^']*\)'.*/\1/p" "$auto" || true; } | tail -n 1)
  pport=$({ sed -n "s/^primary_conninfo = '.* port=\([0-9]*\).*/\1/p" "$auto" || true; } | tail -n 1)
  if [ -n "$slot" ] && [ -n "$pport" ]; then echo "$slot $pport"; fi
}

# drop_slot SLOT PORT drops a removed standby's slot on its primary (in this root filesystem),
# if that runs, once the standby's walsender has let go of it: a forgotten slot keeps WAL.
drop_slot() {
  local slot=$1 PORT=$2 i
  if ! port_busy; then
    log "the primary on port $PORT is not running: drop slot $slot there when it is (SELECT pg_drop_replication_slot('$slot'))"
    return 0
  fi
  for i in $(seq 1 50); do
    [ "$(psql_admin -d postgres -Atc "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '$slot' AND active")" = 0 ] && break
    sleep 0.2
  done
  psql_admin -d postgres -Atc "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$slot'" >/dev/null
  log "dropped slot $slot on 127.0.0.1:$PORT"
}

# The standby's name, its slot's name, and the primary's instance.
replica_names() {
  PRIMARY=${ZAXY_PG_INSTANCE:-}
  if [ -n "${ZAXY_PG_REPLICA:-}" ]; then
    REPLICA=$ZAXY_PG_REPLICA
  elif [ -z "$PRIMARY" ]; then
    REPLICA=replica
  else
    REPLICA=$PRIMARY-replica
  fi
  valid_name "$REPLICA" || die "ZAXY_PG_REPLICA '$REPLICA' must be 1-40 of a-z, 0-9, '-' and '_', starting with a letter or digit"
  [ "$REPLICA" != "$PRIMARY" ] || die "a standby cannot be its own primary ($REPLICA)"
  SLOT=zaxy_${REPLICA//-/_}
}

# primary_ready starts the primary if needed and checks that it can serve a standby; it sets
# PRIMARY_PORT.
primary_ready() {
  use_instance "$PRIMARY"
  need_port
  provision
  bootstrap_roles
  local level senders
  level=$(psql_admin -d postgres -Atc 'SHOW wal_level')
  senders=$(psql_admin -d postgres -Atc 'SHOW max_wal_senders')
  if [ "$level" = minimal ] || [ "$senders" = 0 ]; then
    die "$(label) has wal_level=$level and max_wal_senders=$senders; a standby needs wal_level=replica and max_wal_senders > 0 (set them in $ROOTFS$PGDATA/postgresql.conf and restart it)"
  fi
  PRIMARY_PORT=$PORT
}

# create_standby copies the running primary with pg_basebackup into the selected instance's
# data directory and makes it a standby streaming through the slot SLOT.
create_standby() {
  log "copying $( [ -z "$PRIMARY" ] && echo "the default cluster" || echo "instance $PRIMARY") (127.0.0.1:$PRIMARY_PORT) into $PGDATA with pg_basebackup"
  local pport=$PORT
  PORT=$PRIMARY_PORT
  # A slot left by an earlier standby of this name (its data deleted by hand) is replaced.
  psql_admin -d postgres -Atc "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$SLOT' AND NOT active" >/dev/null
  PORT=$pport
  rm -rf "${ROOTFS:?}$PGDATA"
  in_root install -d -m 0700 -o postgres -g postgres "$PGDATA"
  if ! as_postgres PGPASSWORD=postgres "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres \
    -D "$PGDATA" -R -C -S "$SLOT" -X stream -c fast --no-password ${ZAXY_PG_BASEBACKUP_OPTIONS:-} >&2 9>&-; then
    rm -rf "${ROOTFS:?}$PGDATA"
    die "pg_basebackup from 127.0.0.1:$PRIMARY_PORT failed"
  fi
  cat >>"$ROOTFS$PGDATA/postgresql.conf" <<CONF
# zaxy: a streaming standby of 127.0.0.1:$PRIMARY_PORT through slot $SLOT (primary_conninfo
# and primary_slot_name are in postgresql.auto.conf, written by pg_basebackup -R)
hot_standby = on
CONF
}

# apply_delay writes ZAXY_REPLICA_APPLY_DELAY, when set, as the standby's recovery_min_apply_delay.
apply_delay() {
  [ -n "${ZAXY_REPLICA_APPLY_DELAY+set}" ] || return 0
  local conf="$ROOTFS$PGDATA/postgresql.conf"
  sed -i '/^recovery_min_apply_delay = /d' "$conf"
  echo "recovery_min_apply_delay = '${ZAXY_REPLICA_APPLY_DELAY:-0}'  # zaxy: ZAXY_REPLICA_APPLY_DELAY" >>"$conf"
  if running; then psql_admin -d postgres -Atc 'SELECT pg_reload_conf()' >/dev/null; fi
}

replica() {
  local action=${1:-start}
  case "$action" in
    start | stop | status | remove) ;;
    *) die "usage: $0 replica start|stop|status|remove" ;;
  esac
  if [ -z "${ZAXY_PG_INSTANCE:-}" ] && [ -n "${ZAXY_DATABASE_URL:-}" ] && [ "$action" = start ]; then
    die "ZAXY_DATABASE_URL is set: make db-replica makes standbys of the local clusters only; give an external primary's standbys to Zaxy as ZAXY_REPLICA_URLS"
  fi
  replica_names
  if [ "$action" = status ]; then
    ZAXY_PG_INSTANCE=$REPLICA ZAXY_DATABASE_URL='' status
    return
  fi
  [ "$(id -u)" = 0 ] || die "needs root to manage a local standby"
  case "$action" in
    start) check_prereqs ;;
    *) if [ ! -d "$ROOTFS" ]; then log "no local PostgreSQL has been built"; return 0; fi ;;
  esac
  lock
  case "$action" in
    start)
      primary_ready
      use_instance "$REPLICA"
      if [ -z "$PORT" ]; then PORT=$DEFAULT_REPLICA_PORT; fi
      want_port "${ZAXY_REPLICA_PORT:-}"
      if [ ! -f "$ROOTFS$PGDATA/PG_VERSION" ]; then create_standby; fi
      apply_delay
      start_cluster
      echo "ZAXY_REPLICA_ADMIN_URL=$(admin_url)"
      echo "ZAXY_REPLICA_URL=$(app_url)"
      ;;
    stop)
      use_instance "$REPLICA"
      stop_cluster fast
      umount_pseudo
      ;;
    remove)
      use_instance "$REPLICA"
      remove_instance
      umount_pseudo
      ;;
  esac
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  remove) remove ;;
  replica) replica "${2:-start}" ;;
  *) die "usage: $0 start|stop|status|remove|replica [start|stop|status|remove]" ;;
esac
