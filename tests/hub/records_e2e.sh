#!/usr/bin/env bash
# Records end to end, every program real (common/protocol/RECORDS.md): two stackrace-servers submit to one
# stackrace-hub whose operator trusts the first server only. Keyed stackrace-bots race a 20-line sprint on each; the
# bots sign their runs, each server checks the signatures and queues the race, its agent submits it, the hub
# re-simulates it and lists every run: the trusted server's on the trusted list, the other's on the other list. Then
# the hub serves each record's page and its replay, which verifies with stackrace-replay. The first server starts
# before the hub is up, so its first submission also waits in its queue until the hub answers.
#
#   tests/hub/records_e2e.sh HUB SERVER BOT REPLAY_TOOL
set -euo pipefail
hub_bin=$1 server_bin=$2 bot_bin=$3 replay_bin=$4
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "records_e2e: FAIL: $*" >&2
  for f in "$work"/*.log; do echo "--- $f" >&2; tail -n 20 "$f" >&2; done
  exit 1
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1"; }
# Polls `command` until it succeeds, for at most $2 seconds (a deadline, not a wait).
until_ok() {
  local what=$1 seconds=$2; shift 2
  local end=$((SECONDS + seconds))
  until "$@" > /dev/null 2>&1; do
    [ $SECONDS -lt $end ] || fail "$what (not within $seconds s)"
    sleep 0.2
  done
}

hub_port=$(free_port)
hub_url="http://127.0.0.1:$hub_port"
start_server() {  # NAME PORT: a server with its data dir, submitting to the hub (not in a subshell: pids must keep it)
  local name=$1 port=$2
  mkdir -p "$work/$name"
  "$server_bin" --bind 127.0.0.1 --port "$port" --data-dir "$work/$name" --name "$name" --no-lan \
    --records "$hub_url" > "$work/$name.log" 2>&1 &
  pids+=($!)
}
alpha_port=$(free_port)
bravo_port=$(free_port)
start_server alpha "$alpha_port"
start_server bravo "$bravo_port"
server_key() { grep -o 'public key [0-9a-f]\{64\}' "$work/$1.log" | head -n 1 | awk '{print $3}'; }
until_ok "alpha logs its server key" 20 grep -q 'public key [0-9a-f]\{64\}' "$work/alpha.log"
until_ok "bravo logs its server key" 20 grep -q 'public key [0-9a-f]\{64\}' "$work/bravo.log"
alpha_key=$(server_key alpha)

# Alpha's race is played while the hub is not running yet: it waits in alpha's queue.
race() {  # PORT NAME_PREFIX
  "$bot_bin" --server "127.0.0.1:$1" --create sprint --lines 20 --room-size 2 --count 2 --races 1 --timeout 120 \
    --name-prefix "$2" --key "$work/bots.key" > "$work/bots-$2.log" 2>&1 || fail "the bots' race on port $1"
}
race "$alpha_port" ada

"$hub_bin" --bind 127.0.0.1 --port "$hub_port" --data-dir "$work/hub" --trust "$alpha_key" > "$work/hub.log" 2>&1 &
pids+=($!)
until_ok "the hub answers" 20 get "$hub_url/healthz"
race "$bravo_port" bo

board_has() {  # LIST COUNT: the sprint-20l board's LIST holds COUNT entries
  get "$hub_url/api/records/sprint-20l?list=$1" | python3 -c '
import json, sys
answer = json.load(sys.stdin)
sys.exit(0 if answer["total"] == int(sys.argv[1]) else 1)' "$2"
}
until_ok "alpha's two runs reach the trusted list (sent from its queue)" 60 board_has trusted 2
until_ok "bravo's two runs reach the other list" 60 board_has other 2

# The entries: the right players under their keys, their server, and a page and a replay for each.
get "$hub_url/api/records/sprint-20l?list=trusted" > "$work/trusted.json"
get "$hub_url/api/records/sprint-20l?list=other" > "$work/other.json"
python3 - "$work" "$alpha_key" <<'EOF' || fail "the boards' entries"
import hashlib, json, sys
work, alpha_key = sys.argv[1], sys.argv[2]
trusted = json.load(open(work + "/trusted.json"))["entries"]
other = json.load(open(work + "/other.json"))["entries"]
assert sorted(e["player"] for e in trusted) == ["ada1", "ada2"], trusted
assert sorted(e["player"] for e in other) == ["bo1", "bo2"], other
assert [e["place"] for e in trusted] == [1, 2], trusted
assert trusted[0]["time_us"] <= trusted[1]["time_us"], trusted
for e in trusted + other:
    assert e["lines"] >= 20 and e["rules_version"] >= 1, e  # the last clear may pass the 20th line
    # The short id is the first 8 hex digits of the key's BLAKE2b-256 (net/identity/key_id.h).
    assert e["key_id"] == hashlib.blake2b(bytes.fromhex(e["key"]), digest_size=32).hexdigest()[:8], e
assert len({e["key"] for e in trusted + other}) == 4, "four bots, four keys"
assert {e["server"] for e in trusted} == {"alpha"} and {e["server"] for e in other} == {"bravo"}
open(work + "/record", "w").write(trusted[0]["record"] + "\n" + trusted[0]["game"] + "\n")
EOF
record=$(sed -n 1p "$work/record")
game=$(sed -n 2p "$work/record")
get "$hub_url/records/run/$record" > "$work/record.html" || fail "the record's page"
grep -q "trusts" "$work/record.html" || fail "the record's page does not say why it is trusted"
python3 -c 'import sys, urllib.request; open(sys.argv[2], "wb").write(urllib.request.urlopen(sys.argv[1], timeout=5).read())' \
  "$hub_url/games/$game.srr" "$work/record.srr" || fail "the record's replay"
"$replay_bin" verify "$work/record.srr" > "$work/verify.log" 2>&1 || fail "the hub's replay does not verify"
get "$hub_url/metrics" > "$work/metrics.txt"
grep -q '^stackrace_hub_submissions_total{result="accepted"} 2$' "$work/metrics.txt" \
  || fail "the hub counts two accepted submissions: $(grep submissions_total "$work/metrics.txt" | tr '\n' ' ')"
echo "records_e2e: PASS (alpha's queued race and bravo's race listed: 2 trusted, 2 other; record $record verifies)"
