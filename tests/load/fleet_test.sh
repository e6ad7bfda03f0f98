#!/usr/bin/env bash
# A fleet on one machine: SERVERS stackrace-server processes, each on its own port, race BOTS racers in rooms of 8,
# storing every game in one replay store shared by the fleet: a PostgreSQL database (STORE=postgresql, the default;
# stackrace-server --database) or, to compare, an SQLite folder store per server (STORE=sqlite). The racers come from
# one recorded-games generator per server (stackrace-bot --recorded), and server 1 also has the probe: 8 real bots in
# a room of their own, whose relay delay (median / p99) measures the server. Prints per server the probe's and the
# generators' summaries, the replay writer's waits, and for the fleet the games stored, games stored per second of
# the run, and whether every stored game verifies (stackrace-replay verify).
#
#   tests/load/fleet_test.sh [SERVERS] [BOTS] [LINES] [RACES]   (defaults: 4 servers, 200 bots, 40-line sprint, 3
#                                                                rounds of one race per room; needs ./stackrace.sh build)
#
# STORE=postgresql runs inside a throwaway cluster that pg_virtualenv (postgresql-common) starts and drops; inside
# one already (PGHOST set), it uses that server and makes a database of its own. BUILD_DIR=DIR: another build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
servers=${1:-4}
bots=${2:-200}
lines=${3:-40}
races=${4:-3}
store=${STORE:-postgresql}
build=${BUILD_DIR:-build/release}
server=$build/server/stackrace-server
bot=$build/bot/stackrace-bot
replay_tool=$build/replays/stackrace-replay
[ -x "$server" ] && [ -x "$bot" ] && [ -x "$replay_tool" ] || { echo "fleet_test: run ./stackrace.sh build first" >&2; exit 2; }
case "$store" in postgresql | sqlite) ;; *) echo "fleet_test: STORE must be postgresql or sqlite" >&2; exit 2 ;; esac
[ "$servers" -ge 1 ] && [ "$bots" -ge $((8 * servers + 8)) ] || {
  echo "fleet_test: needs at least 8 racers per server plus the probe's 8 (SERVERS=$servers BOTS=$bots)" >&2; exit 2; }
if [ "$store" = postgresql ] && [ -z "${PGHOST:-}" ]; then
  command -v pg_virtualenv > /dev/null || { echo "fleet_test: pg_virtualenv not found (deploy/install-deps.sh)" >&2; exit 2; }
  exec pg_virtualenv "$0" "$@"
fi

work=$(mktemp -d)
chmod 755 "$work"
pids=()
db=""
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  [ -n "$db" ] && psql -q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The generator plays recorded games: one per room and race of a server, seeds 1, 2, ... (each server hands out its
# race seeds from 1: --race-seeds 1), and a few more for the probe's races, which share that sequence.
per_server=$((bots / servers))
games=$(( ((per_server + 7) / 8) * races + races + 2 ))
"$bot" --mode sprint --lines "$lines" --seed 1 --games "$games" --quiet --out "$work/recorded/" > /dev/null \
  || { echo "fleet_test: recording $games games failed" >&2; exit 2; }
ulimit -n 8192 2>/dev/null || true

if [ "$store" = postgresql ]; then
  db="sr_fleet_$$"
  psql -q -d postgres -c "CREATE DATABASE $db TEMPLATE template0 ENCODING 'UTF8'" > /dev/null
  locator="postgresql:///$db"
  echo "store: one PostgreSQL database for the fleet ($(psql -At -d postgres -c 'SHOW server_version'))"
else
  echo "store: an SQLite folder store per server"
fi

base=$((20000 + RANDOM % 20000))
start_server() {
  local i=$1 port=$((base + 10 * $1)) store_args=()
  mkdir -p "$work/s$i"
  if [ "$store" = postgresql ]; then store_args=(--database "$locator"); fi
  "$server" --port "$port" --bind 127.0.0.1 --data-dir "$work/s$i" "${store_args[@]}" --max-players 1000 \
    --max-per-address 1000 --max-rooms 500 --trust-addresses 127.0.0.1 --race-seeds 1 --no-lan \
    --metrics-port "$((port + 1))" --metrics-bind 127.0.0.1 --log-level warn > "$work/s$i/server.log" 2>&1 &
  pids+=($!)
}
for ((i = 1; i <= servers; ++i)); do start_server "$i"; done
# Each server's metrics answer once it listens: that is the start signal (no fixed wait).
counter() {
  python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
    "http://127.0.0.1:$(($2 + 1))/metrics" 2>/dev/null | awk -v m="$1" '$1 == m { print $2 }'
}
for ((i = 1; i <= servers; ++i)); do
  for ((t = 0; t < 100; ++t)); do
    [ -n "$(counter stackrace_players "$((base + 10 * i))")" ] && break
    sleep 0.1
  done
done

s0=$(date +%s.%N)
# RACES rounds: in each, every server's generator fills its rooms for one race (a recorded game is one race) while
# the probe races once beside them on server 1.
probe_rc=0
load_rc=0
for ((round = 1; round <= races; ++round)); do
  clients=()
  for ((i = 1; i <= servers; ++i)); do
    port=$((base + 10 * i))
    count=$per_server
    [ "$i" = 1 ] && count=$((per_server - 8))
    nice -n 10 "$bot" --server "127.0.0.1:$port" --create sprint --lines "$lines" --room-size 8 --timeout 900 \
      --count "$count" --name-prefix "s${i}r${round}load" --poll-ms 16 --recorded "$work/recorded" \
      >> "$work/s$i/load.log" 2>&1 &
    clients+=($!)
  done
  "$bot" --server "127.0.0.1:$((base + 10))" --create sprint --lines "$lines" --room-size 8 --timeout 900 \
    --count 8 --name-prefix "probe$round" --pps 3 --lookahead 0 --search drops >> "$work/probe.log" 2>&1 || probe_rc=$?
  for c in "${clients[@]}"; do wait "$c" || load_rc=$?; done
done
s1=$(date +%s.%N)

grep '^summary' "$work/probe.log" | sed 's/^/probe (8 bots on server 1, one race a round): /'
[ "$probe_rc" = 0 ] || { echo "probe: exit status $probe_rc"; tail -n 5 "$work/probe.log"; }
for ((i = 1; i <= servers; ++i)); do
  port=$((base + 10 * i))
  echo "server $i: generator $(grep '^summary' "$work/s$i/load.log" | tr '\n' ' ' || tail -n 1 "$work/s$i/load.log")"
  echo "  replays written $(counter stackrace_replay_writes_total "$port"), failed $(counter stackrace_replay_write_failures_total "$port"), writer wait max $(counter stackrace_replay_wait_seconds_max "$port") s, total $(counter stackrace_replay_wait_seconds_total "$port") s"
done
# Stop the servers: each writes what it still holds before it exits.
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
pids=()

verify_rc=0
if [ "$store" = postgresql ]; then
  stored=$(psql -At -d "$db" -c "SELECT count(*) FROM games")
  span=$(psql -At -d "$db" -c "SELECT (max(created_unix_ms) - min(created_unix_ms)) / 1000.0 FROM games")
  verified=$("$replay_tool" verify --quiet --store "$locator" 2>&1) || verify_rc=$?
else
  files=("$work"/s*/*.srr)
  stored=0
  verified=""
  if [ -e "${files[0]}" ]; then
    stored=${#files[@]}
    verified=$("$replay_tool" verify --quiet "${files[@]}" 2>&1) || verify_rc=$?
  fi
  span=""
fi
awk -v n="$stored" -v s0="$s0" -v s1="$s1" -v span="$span" -v k="$servers" -v b="$bots" \
  'BEGIN { printf "fleet: %d servers, %d racers: %d games stored in %.1f s, %.2f games a second over the run%s\n", k, b, n, s1 - s0, n / (s1 - s0), (span != "" ? sprintf(" (first to last game: %.1f s)", span) : "") }'
echo "replays: $(grep -v '^$' <<< "$verified" | tail -n 1)"
[ "$probe_rc" = 0 ] && [ "$load_rc" = 0 ] && [ "$verify_rc" = 0 ] || {
  echo "fleet_test: a bot process ended badly or a replay did not verify (see above)" >&2; exit 1; }
