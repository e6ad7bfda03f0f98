#!/usr/bin/env bash
# The replay store never loses a race (issue 15): races run on a real stackrace-server while it is SIGKILLed at
# random moments and restarted on the same data directory. Every race whose results a client received must be in the
# store after the restart: by its replay id when the bot got one (its file, and its row in the index), and by its
# racers' names otherwise (a server killed between the results and the id). No temporary file may be left, and files
# and index must agree. Prints one summary line:
#
#   kill test: K kills (E just after a race's end), R races with results seen, F with the replay's fate
#   (S stored, N told "not stored"), L lost, T temporary files left, ...
#
#   tests/bench/kill_test.sh [KILLS] [BUILD_DIR]   (defaults: 100 kills, build/release)
#
# Exit status 0 when nothing was lost and nothing was left, 1 otherwise, 2 on a setup problem. ctest runs a short
# version (KillTest.Short: 10 kills, the random ones within 3.5 s of each start). KILL_SEED=N makes the kill moments repeatable;
# KILL_WINDOW_MS=9000 is how long after the start (plus 0.5 s) the kill may come; KEEP=1 keeps the work directory.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
kills=${1:-100}
build=${2:-build/release}
server=$build/server/stackrace-server
bot=$build/bot/stackrace-bot
tool=$build/replays/stackrace-replay
# The default tree is the one ./stackrace.sh owns: build it when a program is missing (a fresh clone).
if [ "$build" = build/release ] && { [ ! -x "$server" ] || [ ! -x "$bot" ] || [ ! -x "$tool" ]; }; then
  ./stackrace.sh build >&2
fi
for b in "$server" "$bot" "$tool"; do
  [ -x "$b" ] || { echo "kill_test: $b is missing (build stackrace-server, stackrace-bot, stackrace-replay)" >&2; exit 2; }
done
RANDOM=${KILL_SEED:-$$}

work=$(mktemp -d)
data=$work/data
server_pid="" bot_pid=""
cleanup() {
  [ -n "$bot_pid" ] && kill -9 "$bot_pid" 2> /dev/null || true
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2> /dev/null || true
  wait 2> /dev/null || true
  [ -n "${KEEP:-}" ] && echo "kill_test: kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT

# Starts the server and waits (deadline 20 s) until it has reconciled the store and listens.
start_server() {
  port=$((20000 + RANDOM % 20000))
  "$server" --port "$port" --bind 127.0.0.1 --data-dir "$data" --log-level info > "$work/server-$1.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 200); do
    grep -q "listening" "$work/server-$1.log" 2> /dev/null && return 0
    kill -0 "$server_pid" 2> /dev/null || break
    sleep 0.1
  done
  echo "kill_test: the server did not start:" >&2
  cat "$work/server-$1.log" >&2
  exit 2
}

# Every replay id in the index, one a line.
indexed_ids() { "$tool" list --store "$data" --limit 1000000 | { grep -oE '\b[0-9a-f]{16}\b' || true; } | sort -u; }

# Races on 2 rooms of 2 fast bots (4-line sprints: a race every ~4-5 s with the 3 s countdown).
start_bots() {
  "$bot" --server "127.0.0.1:$port" --create sprint --lines 4 --room-size 2 --count 4 --races 10000 --pps 0 \
    --lookahead 0 --search drops --timeout 3600 --name-prefix "k$1-" > "$work/bot-$1.log" 2>&1 &
  bot_pid=$!
}

# Waits (deadline 20 s) until the server has logged the end of a race, the moment the old server lost races in.
wait_for_race_end() {
  for _ in $(seq 2000); do
    grep -q "race [0-9]* ended" "$work/server-$1.log" && return 0
    sleep 0.01
  done
}

lost=0 left=0 reconciled_lines=0 at_end=0
for ((k = 1; k <= kills; ++k)); do
  start_server "$k"
  start_bots "$k"
  # Every other kill comes 0..200 ms after a race has ended on the server (while its replay is written and its
  # results wait); the others at a random moment 0.5 s .. 0.5 s + the window after the start, in 10 ms steps:
  # before, during and after races. (The sleeps choose the kill's moment; they synchronise nothing.)
  if ((k % 2 == 0)); then
    wait_for_race_end "$k"
    at_end=$((at_end + 1))
    sleep "$(awk -v r=$((RANDOM % 21)) 'BEGIN { printf "%.2f", r / 100 }')"
  else
    sleep "$(awk -v r=$((RANDOM % (${KILL_WINDOW_MS:-9000} / 10))) 'BEGIN { printf "%.2f", 0.5 + r / 100 }')"
  fi
  kill -9 "$server_pid"
  wait "$server_pid" 2> /dev/null || true
  server_pid=""
  kill -9 "$bot_pid" 2> /dev/null || true
  wait "$bot_pid" 2> /dev/null || true
  bot_pid=""
done
# A last start: it reconciles after the last kill; then the check.
start_server final
grep -h "replay store" "$work"/server-*.log | grep -v "files and index agree" | sed 's/^/  /' > "$work/reconciled" || true
reconciled_lines=$(wc -l < "$work/reconciled")
kill -TERM "$server_pid"
wait "$server_pid" 2> /dev/null || true
server_pid=""

cat "$work"/bot-*.log | grep -oE '\| replay [0-9a-f]{16}$' | awk '{print $3}' | sort -u > "$work/announced"
told=$(cat "$work"/bot-*.log | grep -c '| replay not stored' || true)
races=$(($(wc -l < "$work/announced") + told))
indexed_ids > "$work/indexed"
for id in $(cat "$work/announced"); do
  if [ ! -f "$data/$id.srr" ] || ! grep -qx "$id" "$work/indexed"; then
    lost=$((lost + 1))
    echo "  lost: $id (file $([ -f "$data/$id.srr" ] && echo present || echo missing), $(grep -qx "$id" "$work/indexed" && echo indexed || echo "not indexed"))"
  fi
done
# Every race whose results a bot saw, whether or not its replay id followed (a server killed between the two): each
# room's racers (named k<life>-<n>, unique to one bot process) must be in at least as many stored games as the races
# whose results they saw.
results_seen=0
while read -r count player; do
  results_seen=$((results_seen + count))
  in_store=$("$tool" list --store "$data" --player "$player" --limit 1000000 | { grep -oE '\b[0-9a-f]{16}\b' || true; } |
             sort -u | wc -l)
  if [ "$in_store" -lt "$count" ]; then
    lost=$((lost + count - in_store))
    echo "  lost: $((count - in_store)) of the $count races whose results $player saw"
  fi
done < <(cat "$work"/bot-*.log | grep -E '\| results$' | while read -r line; do
           grep -oE '\bk[0-9]+-[0-9]+\b' <<< "$line" | sort | head -n 1
         done | sort | uniq -c)
left=$(find "$data" -name '*.tmp-*' | wc -l)
files=$(find "$data" -name '*.srr' | wc -l)
rows=$(wc -l < "$work/indexed")
echo "kill test: $kills kills ($at_end just after a race's end), $results_seen races with results seen, $races with the replay's fate ($(wc -l < "$work/announced") stored, $told told \"not stored\"), $lost lost, $left temporary files left; store: $files files, $rows indexed; $reconciled_lines starts had something to reconcile"
[ "$reconciled_lines" -gt 0 ] && head -n 5 "$work/reconciled"
[ "$results_seen" -gt 0 ] || { echo "kill_test: no race ended with results: nothing was tested" >&2; exit 1; }
[ "$lost" -eq 0 ] && [ "$left" -eq 0 ] && [ "$files" -eq "$rows" ]
