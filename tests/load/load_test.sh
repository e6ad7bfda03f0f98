#!/usr/bin/env bash
# Load test of one stackrace-server on loopback: N racers in rooms of 8 race one sprint while every racer is refereed.
# N - 8 racers come from one load-generator process that plays recorded games (stackrace-bot --recorded: no bot
# thinks there, so it costs little more than its network traffic); 8 more are real bots racing in a room of their own
# from a separate, lightly loaded probe process, whose relay delay (median / p99) measures the server. The games are
# recorded first (stackrace-bot --mode sprint, one per room, seeds 1, 2, ...), and the server hands out those seeds
# in the order races start (--race-seeds 1). Prints the generator's summary and its own lateness (how late it sent
# its changes: the server's figures are the server's only while that stays small), the probe's summary, the
# server's CPU use and sends, and the replays stored, each verified by stackrace-replay verify.
#
#   tests/load/load_test.sh [BOTS] [LINES]   (defaults: 1000 bots, 40-line sprint; needs ./stackrace.sh build)
#
# On one small machine the generator (standing in for a thousand players' machines) competes with the server and
# the probe for the cores; these knobs say how:
#   LOAD_NICE=10     the generator's niceness, so it takes the CPU the server and probe leave
#   SERVER_NICE=0    the server's niceness (-5 as root: what a dedicated game host would give it)
#   PROBE_NICE=0     the probe's niceness (-5 as root: the probe stands for a player's own machine)
#   PIN=auto         with 4 or more cores the server gets the last core to itself (PIN=1 forces it, PIN=0 never)
#   PROBE_DELAYS=F   keep every delay the probe measured ("SECONDS DELAY_MS" lines, from the probe's start; the
#                    last run's)
#   BUILD_DIR=DIR    another build directory (default build/release)
#   SERVER_ARGS=...  more options for the server (SERVER_ARGS="--relay-every-ms 0": a relay per input, as before
#                    relays were batched)
#   RUNS=1           race this many times, each on a fresh server, and end with the medians (a shared machine's
#                    scheduling makes a single p99 noisy)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bots=${1:-1000}
lines=${2:-40}
build=${BUILD_DIR:-build/release}
server=$build/server/stackrace-server
bot=$build/bot/stackrace-bot
replay_tool=$build/replays/stackrace-replay
[ -x "$server" ] && [ -x "$bot" ] && [ -x "$replay_tool" ] || { echo "load_test: run ./stackrace.sh build first" >&2; exit 2; }
# One recorded game per room of the generator, and two more: the probe's race takes a seed of the same sequence, and
# may start before the last of the generator's rooms.
recorded=$(mktemp -d)
trap 'rm -rf "$recorded"' EXIT
games=$(( (bots - 8 + 7) / 8 + 2 ))
"$bot" --mode sprint --lines "$lines" --seed 1 --games "$games" --quiet --out "$recorded/" > /dev/null \
  || { echo "load_test: recording $games games failed" >&2; exit 2; }
ulimit -n 8192 2>/dev/null || true
pin_server="" pin_clients=""
cores=$(nproc)
pin=${PIN:-auto}
[ "$pin" = auto ] && { [ "$cores" -ge 4 ] && pin=1 || pin=0; }
if [ "$pin" = 1 ] && [ "$cores" -ge 2 ] && command -v taskset > /dev/null; then
  pin_server="taskset -c $((cores - 1))"
  pin_clients="taskset -c 0-$((cores - 2))"
fi
places=$((bots + 10 < 4000 ? bots + 10 : 4000))  # the server's cap: 4,000 players
run_once() {
  data=$(mktemp -d)
  port=$((20000 + RANDOM % 20000))
  metrics_port=$((port + 1))
  $pin_server nice -n "${SERVER_NICE:-0}" "$server" --port "$port" --bind 127.0.0.1 --data-dir "$data" --max-players "$places" --max-per-address "$places" --max-rooms 1000 \
    --trust-addresses 127.0.0.1 --race-seeds 1 --metrics-port "$metrics_port" --metrics-bind 127.0.0.1 \
    --log-level warn ${SERVER_ARGS:-} &
  pid=$!
  # On any exit the server is stopped and waited for before its store goes: it writes replays until it exits.
  trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$data" "$results" "$cpus" "$recorded"' EXIT
  sleep 1
  ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
  hz=$(getconf CLK_TCK)
  # The server's own counters (its /metrics): UDP datagrams it sent and received, and the button changes it received.
  counter() {
    python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' \
      "http://127.0.0.1:$metrics_port/metrics" 2>/dev/null | awk -v m="$1" '$1 == m { print $2 }'
  }
  t0=$(ticks); s0=$(date +%s.%N); d0=$(counter stackrace_sent_datagrams_total); i0=$(counter stackrace_inputs_total)
  m0=$(counter stackrace_sent_messages_total); x0=$(counter stackrace_socket_drops_total)
  v0=$(counter stackrace_received_datagrams_total)
  g0=$(counter stackrace_run_signatures_total); r0=$(counter stackrace_run_signatures_refused_total)
  common=(--server "127.0.0.1:$port" --create sprint --lines "$lines" --room-size 8 --races 1 --timeout 900)
  # The generator stands in for a thousand players' machines; at nice 10 it takes the CPU the server and the probe
  # leave, as those machines would not share the server's cores. (LOAD_NICE=0 to run it at normal priority.)
  # Its racers read the network once per 60 Hz frame (--poll-ms 16), as the game does, so their acknowledgements go
  # out in batches; the probe's bots read as soon as a packet arrives, so its delays are exact.
  $pin_clients nice -n "${LOAD_NICE:-10}" "$bot" "${common[@]}" --count "$((bots - 8))" --name-prefix load --poll-ms 16 \
    --recorded "$recorded" > "$data/load.log" &
  load=$!
  sleep 8  # the probe races while the load generator's rooms race
  # A bot process that ends badly (its racers removed by the referee, a timeout) does not stop the script: the
  # server's figures below are printed whatever happened, and the script's status says so at the end.
  local probe_rc=0 load_rc=0
  $pin_clients nice -n "${PROBE_NICE:-0}" "$bot" "${common[@]}" --count 8 --name-prefix probe --pps 3 --lookahead 0 \
    --search drops ${PROBE_DELAYS:+--delays-out "$PROBE_DELAYS"} > "$data/probe.log" || probe_rc=$?
  wait $load || load_rc=$?
  echo "load generator ($((bots - 8)) racers): $(grep '^summary' "$data/load.log" || tail -n 1 "$data/load.log")$([ "$load_rc" = 0 ] || echo " (exit status $load_rc)")"
  echo "  $(grep '^generator lateness' "$data/load.log" || echo "generator lateness: not measured")"
  echo "probe (8 bots):                  $(tail -n 1 "$data/probe.log")$([ "$probe_rc" = 0 ] || echo " (exit status $probe_rc)")"
  t1=$(ticks); s1=$(date +%s.%N); d1=$(counter stackrace_sent_datagrams_total); i1=$(counter stackrace_inputs_total)
  m1=$(counter stackrace_sent_messages_total); x1=$(counter stackrace_socket_drops_total)
  v1=$(counter stackrace_received_datagrams_total)
  g1=$(counter stackrace_run_signatures_total); r1=$(counter stackrace_run_signatures_refused_total)
  awk -v t="$((t1 - t0))" -v hz="$hz" -v s0="$s0" -v s1="$s1" -v n="$bots" \
    'BEGIN { wall = s1 - s0; cpu = t / hz; printf "server: %d racers refereed, %.1f s CPU over %.1f s wall (%.0f%% of one core)\n", n, cpu, wall, 100 * cpu / wall }'
  awk -v d="$(( ${d1:-0} - ${d0:-0} ))" -v i="$(( ${i1:-0} - ${i0:-0} ))" -v m="$(( ${m1:-0} - ${m0:-0} ))" \
    -v s0="$s0" -v s1="$s1" \
    'BEGIN { printf "server sends: %d datagrams, %.0f a second, %.2f per input (%d inputs), %.2f messages per datagram\n", d, d / (s1 - s0), (i > 0 ? d / i : 0), i, (d > 0 ? m / d : 0) }'
  awk -v v="$(( ${v1:-0} - ${v0:-0} ))" -v i="$(( ${i1:-0} - ${i0:-0} ))" -v s0="$s0" -v s1="$s1" -v n="$bots" \
    'BEGIN { printf "server receives: %d datagrams, %.0f a second, %.2f per input, %.1f a second per racer\n", v, v / (s1 - s0), (i > 0 ? v / i : 0), v / (s1 - s0) / n }'
  echo "server socket drops (its queue was full: the loop fell behind): $(( ${x1:-0} - ${x0:-0} ))"
  echo "run signatures (one per racer whose game ended): $(( ${g1:-0} - ${g0:-0} )) checked and kept, $(( ${r1:-0} - ${r0:-0} )) ignored"
  echo "replays stored: $(ls "$data"/*.srr 2>/dev/null | wc -l)"
  # (A probe that printed no summary adds no delays: the medians are of the runs that measured.)
  { grep -o 'median [0-9.]* ms, p99 [0-9.]* ms' "$data/probe.log" || true; } | awk '{print $2, $5}' >> "$results"
  awk -v t="$((t1 - t0))" -v hz="$hz" -v s0="$s0" -v s1="$s1" 'BEGIN { print 100 * (t / hz) / (s1 - s0) }' >> "$cpus"
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  # Every stored replay re-simulates to the results the referee recorded (the server has stopped: its writes are done).
  local stored=("$data"/*.srr) verify_rc=0
  if [ -e "${stored[0]}" ]; then
    local verified
    verified=$("$replay_tool" verify --quiet "${stored[@]}" 2>&1) || verify_rc=$?
    echo "replays: $(tail -n 1 <<< "$verified")"
  fi
  rm -rf "$data"
  trap 'rm -rf "$results" "$cpus" "$recorded"' EXIT
  [ "$probe_rc" = 0 ] && [ "$load_rc" = 0 ] && [ "$verify_rc" = 0 ] || failed=1
}

results=$(mktemp) cpus=$(mktemp)
failed=0
runs=${RUNS:-1}
for ((run = 1; run <= runs; ++run)); do
  [ "$runs" -gt 1 ] && echo "== run $run of $runs"
  run_once
done
if [ "$runs" -gt 1 ]; then
  median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
  echo "over $runs runs: probe relay delay median $(awk '{print $1}' "$results" | median) ms, p99 median" \
       "$(awk '{print $2}' "$results" | median) ms (each run: $(awk '{print $2}' "$results" | paste -sd ' ')); server" \
       "$(median < "$cpus" | xargs printf '%.0f')% of one core"
fi
rm -rf "$results" "$cpus" "$recorded"
[ "$failed" = 0 ] || { echo "load_test: a bot process ended badly or a replay did not verify (see above)" >&2; exit 1; }
