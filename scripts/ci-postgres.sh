#!/usr/bin/env bash
# Start a throw-away PostgreSQL on 127.0.0.1 for the tests and print its URL
# (the only line on standard output; everything else goes to standard error):
#   TEST_DATABASE_URL=$(scripts/ci-postgres.sh)     # install if needed, start
#   scripts/ci-postgres.sh stop                      # stop it and delete its data
# PGPORT (default 5433) and CARTULINA_PGDATA (default /tmp/cartulina-pg) change where.
set -euo pipefail

port="${PGPORT:-5433}"
data="${CARTULINA_PGDATA:-/tmp/cartulina-pg}"

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# initdb refuses to run as root: as root, run the server as the postgres user
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

bin="$(find_bin)"
if [ "${1:-}" = "stop" ]; then
  if [ -n "$bin" ] && [ -f "$data/postmaster.pid" ]; then
    as_owner "$bin/pg_ctl" -D "$data" -m fast -w stop >&2
  fi
  rm -rf "$data"
  exit 0
fi

if [ -z "$bin" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "PostgreSQL is not installed: run as root, or sudo apt-get install postgresql" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends postgresql >&2 \
    || { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends postgresql >&2; }
  bin="$(find_bin)"
fi

if [ ! -f "$data/PG_VERSION" ]; then
  rm -rf "$data"
  mkdir -p "$data"
  [ "$(id -u)" = 0 ] && chown postgres: "$data"
  as_owner "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 >&2
fi
if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  as_owner "$bin/pg_ctl" -D "$data" -w -t 60 -l "$data/server.log" \
    -o "-h 127.0.0.1 -p $port -k $data -c fsync=off" start >&2
fi
for _ in $(seq 1 60); do
  "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q && break
  sleep 1
done
"$bin/pg_isready" -h 127.0.0.1 -p "$port" >&2
echo "postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
