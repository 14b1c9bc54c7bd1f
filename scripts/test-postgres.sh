#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback for the tests of the shared stores (SwitchyardPostgres).
#
#   eval "$(scripts/test-postgres.sh start)"   # installs PostgreSQL if missing, prints the export
#   scripts/test-postgres.sh stop
#   scripts/test-postgres.sh pause|resume     # stops the server keeping its data / starts it again
#
# `start` initialises a cluster in a temporary directory owned by the `postgres` user (as root, with
# runuser), starts it on 127.0.0.1:${SWITCHYARD_POSTGRES_PORT:-54329} with trust authentication,
# creates the database `switchyard_test`, and prints
# `export SWITCHYARD_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/switchyard_test`.
# It fails loudly (exit 1, the server's log on stderr) when the server cannot start.
set -euo pipefail
PORT="${SWITCHYARD_POSTGRES_PORT:-54329}"
DIR="${SWITCHYARD_POSTGRES_DIR:-/tmp/switchyard-postgres-$PORT}"
log() { echo "[test-postgres] $*" >&2; }

bin_dir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)"
  [[ -n "$found" && -x "$found/postgres" ]] && echo "$found"
}

as_postgres() {
  if [[ "$(id -u)" -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
  BIN="$(bin_dir || true)"
  if [[ -z "$BIN" ]]; then
    log "installing postgresql with apt-get"
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
    BIN="$(bin_dir)"
  fi
  if [[ -f "$DIR/postmaster.pid" ]]; then
    as_postgres "$BIN/pg_ctl" -D "$DIR" stop -m immediate >&2 || true
  fi
  rm -rf "$DIR"
  mkdir -p "$DIR"
  [[ "$(id -u)" -eq 0 ]] && chown postgres:postgres "$DIR"
  chmod 700 "$DIR"
  as_postgres "$BIN/initdb" -D "$DIR" -U postgres -A trust --no-sync -E UTF8 >"$DIR.initdb.log" 2>&1 \
    || { cat "$DIR.initdb.log" >&2; log "initdb failed"; exit 1; }
  if ! as_postgres "$BIN/pg_ctl" -D "$DIR" -w -t 60 -l "$DIR/server.log" \
    -o "-p $PORT -c listen_addresses=127.0.0.1 -k $DIR -c fsync=off -c max_connections=200" start >&2; then
    cat "$DIR/server.log" >&2 || true
    log "the PostgreSQL server did not start"
    exit 1
  fi
  as_postgres "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres switchyard_test >&2
  log "PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT ($DIR)"
  echo "export SWITCHYARD_POSTGRES_URL=postgres://postgres@127.0.0.1:$PORT/switchyard_test"
  ;;
pause)
  BIN="$(bin_dir)"
  as_postgres "$BIN/pg_ctl" -D "$DIR" stop -m fast >&2
  ;;
resume)
  BIN="$(bin_dir)"
  as_postgres "$BIN/pg_ctl" -D "$DIR" -w -t 60 -l "$DIR/server.log" \
    -o "-p $PORT -c listen_addresses=127.0.0.1 -k $DIR -c fsync=off -c max_connections=200" start >&2
  ;;
stop)
  BIN="$(bin_dir || true)"
  if [[ -n "$BIN" && -f "$DIR/postmaster.pid" ]]; then
    as_postgres "$BIN/pg_ctl" -D "$DIR" stop -m fast >&2 || true
  fi
  rm -rf "$DIR" "$DIR.initdb.log"
  ;;
*)
  echo "usage: $0 start|stop|pause|resume" >&2
  exit 2
  ;;
esac
