#!/usr/bin/env bash
# Nothing lost when the hub and PostgreSQL die mid-race (common/protocol/RECORDS.md, server/replay_writer.h "The
# spool"): one stackrace-server keeps its games in PostgreSQL (--database) and submits its records to one
# stackrace-hub that keeps its record book and replays in the same database (--database). Keyed bots race four 20-line sprints; once the first race is stored and the second is on, the hub is
# killed (SIGKILL) and PostgreSQL stopped at once (immediate: no checkpoint, crash recovery at its start). The races
# go on: their replays wait in the server's spool and their records in its queue. Once two races have ended so, both
# come back while the last race is on, and every race the bots were told of is in the database exactly once, in the
# order the races ended, and in the hub's book once, in the same order, with each racer's run once.
#
#   pg_virtualenv tests/hub/records_kill_e2e.sh HUB SERVER BOT
set -euo pipefail
hub_bin=$1 server_bin=$2 bot_bin=$3
races=4
work=$(mktemp -d)
pids=()
hub_pid=
cleanup() {
  for p in "${pids[@]}" $hub_pid; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}" $hub_pid; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "records_kill_e2e: FAIL: $*" >&2
  for f in "$work"/*.log; do echo "--- $f" >&2; tail -n 25 "$f" >&2; done
  exit 1
}
[ -n "${PGPORT:-}" ] || fail "PGPORT is not set: run under pg_virtualenv (ctest does)"
# pg_virtualenv's cluster (version and name), to stop and start it.
read -r pg_version pg_cluster < <(pg_lsclusters -h | awk -v port="$PGPORT" '$3 == port {print $1, $2}')
[ -n "${pg_cluster:-}" ] || fail "no cluster on port $PGPORT"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"; }
until_ok() {  # WHAT SECONDS COMMAND...: polls COMMAND until it succeeds (a deadline, not a wait)
  local what=$1 seconds=$2; shift 2
  local end=$((SECONDS + seconds))
  until "$@" > /dev/null 2>&1; do
    [ $SECONDS -lt $end ] || fail "$what (not within $seconds s)"
    sleep 0.2
  done
}
sql() { psql -X -q -t -A -d sr_kill -c "$1"; }
createdb sr_kill || fail "createdb"

hub_port=$(free_port) metrics_port=$(free_port) port=$(free_port)
hub_url="http://127.0.0.1:$hub_port"
metrics_url="http://127.0.0.1:$metrics_port/metrics"
mkdir -p "$work/server"
"$server_bin" --bind 127.0.0.1 --port "$port" --data-dir "$work/server" --name kill --no-lan \
  --database postgresql:///sr_kill --records "$hub_url" --metrics-bind 127.0.0.1 --metrics-port "$metrics_port" \
  > "$work/server.log" 2>&1 &
pids+=($!)
until_ok "the server logs its key" 20 grep -q 'public key [0-9a-f]\{64\}' "$work/server.log"
server_key=$(grep -o 'public key [0-9a-f]\{64\}' "$work/server.log" | head -n 1 | awk '{print $3}')
start_hub() {
  "$hub_bin" --bind 127.0.0.1 --port "$hub_port" --database postgresql:///sr_kill --trust "$server_key" \
    >> "$work/hub.log" 2>&1 &
  hub_pid=$!
  until_ok "the hub answers" 20 get "$hub_url/healthz"
}
start_hub

"$bot_bin" --server "127.0.0.1:$port" --create sprint --lines 10 --room-size 2 --count 2 --races "$races" \
  --timeout 300 --name-prefix kb --key "$work/bots.key" > "$work/bots.log" 2>&1 &
bots=$!
pids+=($bots)
metric() { get "$metrics_url" | awk -v name="$1" '$1 == name {print $2}'; }
metric_is() { [ "$(metric "$1")" = "$2" ]; }
until_ok "the first race is stored" 120 grep -q '| replay ' "$work/bots.log"
until_ok "the second race is on" 60 metric_is 'stackrace_rooms{state="racing"}' 1

kill -9 "$hub_pid"
wait "$hub_pid" 2>/dev/null || true
hub_pid=
pg_ctlcluster "$pg_version" "$pg_cluster" stop -m immediate || fail "stopping PostgreSQL"
echo "records_kill_e2e: hub killed and PostgreSQL stopped during race 2"

until_ok "two races end while the database is away: they are spooled" 120 metric_is stackrace_replay_spooled_total 2
pg_ctlcluster "$pg_version" "$pg_cluster" start || fail "starting PostgreSQL"
start_hub
wait "$bots" || fail "the bots' races"

mapfile -t told < <(grep -o '| replay [0-9a-f]\{16\}' "$work/bots.log" | awk '{print $3}')
[ "${#told[@]}" -eq "$races" ] || fail "the bots were told of ${#told[@]} stored replays, not $races"
until_ok "the spool drains into the database" 60 metric_is stackrace_replay_spool_pending 0
until_ok "the records queue drains into the hub" 60 metric_is stackrace_records_queued 0

# The database's games: every race the bots were told of, once each, in the order they ended (xmin: one
# transaction per game).
stored=$(sql "SELECT id FROM games ORDER BY xmin::text::bigint" | tr '\n' ' ')
[ "$stored" = "${told[*]} " ] || fail "the database holds [$stored], the bots were told of [${told[*]}]"
[ "$(sql "SELECT count(*) FROM results")" = $((races * 2)) ] || fail "every racer's result is stored once"

# The hub's book (in the same database, beside the server's games): one submission per race, in the order the races
# ended, and each racer's run once.
hub_has_all() { [ "$(sql "SELECT count(*) FROM submissions")" -ge "$races" ]; }
until_ok "every race reaches the hub" 60 hub_has_all
received=$(sql "SELECT server_game FROM submissions ORDER BY id" | tr '\n' ' ')
[ "$received" = "${told[*]} " ] || fail "the hub received [$received], the server stored [${told[*]}]"
[ "$(sql "SELECT count(*) || ' ' || count(DISTINCT game_id || ':' || racer) FROM runs")" = "$((races * 2)) $((races * 2))" ] \
  || fail "each racer's run is in the hub's book once"
[ "$(sql "SELECT count(*) FROM games")" = "$races" ] || fail "the hub's replays are the server's games, stored once"
accepted=$(get "$hub_url/metrics" | awk '$1 == "stackrace_hub_submissions_total{result=\"accepted\"}" {print $2}')
spooled=$(metric stackrace_replay_spooled_total)
echo "records_kill_e2e: PASS ($races races, $spooled spooled while PostgreSQL was down, all stored once and in order;" \
  "the hub's book has each race once, in order, $((races * 2)) runs; this hub run accepted $accepted)"
