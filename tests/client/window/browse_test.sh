#!/usr/bin/env bash
# Finding a server from the game (common/protocol/DIRECTORY.md): a stackrace-hub runs, two stackrace-servers register
# with it (--public --directory), and the game, started on Multiplayer > Browse servers with the hub as its directory,
# lists both with pings it measured itself. A screenshot of the list is taken; the filter, typed by keyboard, leaves
# one; Enter goes to its row and Enter joins it. The game makes a room there, and a stackrace-bot that found the same
# server through the directory (--directory, --server-name) races it to the results. The race's replay, stored by that
# server, verifies.
#
# usage: browse_test.sh STACKRACE SERVER HUB BOT REPLAY_TOOL WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; server="$2"; hub="$3"; bot="$4"; replay_tool="$5"; work="$6"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done' EXIT

"$hub" --bind 127.0.0.1 --port 0 >"$work/hub.log" 2>&1 &
pids+=($!)
wait_for "$work/hub.log" "stackrace-hub listening on" 30
hub_port="$(sed -n 's/.*stackrace-hub listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/hub.log" | head -n1)"
directory="http://127.0.0.1:$hub_port"

for name in Alpha Bravo; do
  "$server" --port 0 --bind 127.0.0.1 --name "$name" --no-lan --public --directory "$directory" \
    --data-dir "$work/$name" >"$work/$name.log" 2>&1 &
  pids+=($!)
done
# Both listed: each answered the hub's challenge on its game port.
listed() {
  python3 - "$directory" <<'PY'
import json, sys, urllib.request
servers = json.load(urllib.request.urlopen(sys.argv[1] + "/api/servers", timeout=5))["servers"]
print(" ".join(sorted(s["name"] for s in servers)))
PY
}
for _ in $(seq 1 300); do [ "$(listed 2>/dev/null)" = "Alpha Bravo" ] && break; sleep 0.1; done
[ "$(listed)" = "Alpha Bravo" ] || { echo "the hub does not list both servers: $(listed)"; cat "$work"/*.log; exit 1; }
bravo_port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/Bravo.log" | head -n1)"

log="$work/stackrace.log"
"$stackrace" --browse --directory "$directory" --config-dir "$work/config" --data-dir "$work/data" \
  --create-room sprint --lines 2 --room-name race --auto-ready --exit-after-race --screenshot "$work/browse.png" \
  >"$log" 2>&1 &
pid=$!
pids+=($pid)

mark=0  # expect (test_env.sh) reads the log from here
# The screen's first frame, the directory's list and the servers' answers come in any order.
for line in "screen: server browser" "browser: directory $directory lists 2 servers" \
  "browser: Alpha (127.0.0.1:[0-9]*) answered in" "browser: Bravo (127.0.0.1:$bravo_port) answered in"; do
  wait_for "$log" "$line" 30 || exit 1
  echo "ok: $line"
done
mark="$(wc -l <"$log")"
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
sleep 0.5
xdotool key F12
expect "screenshot written"
cp "$work/browse.png" "$work/browse-list.png"

# The keyboard starts in the filter: "bra" leaves Bravo; Enter goes to its row, Enter joins.
xdotool type --delay 120 "bra"
keys Return Return
expect "browser: joining Bravo \(127\.0\.0\.1:$bravo_port\)"
expect "screen: lobby"
expect "screen: room"

# The bot finds Bravo through the directory and races the game there.
"$bot" --directory "$directory" --server-name Bravo --count 1 --room race --timeout 120 >"$work/bot.log" 2>&1 &
botpid=$!
pids+=($botpid)
# No key before the race is on: a Space on the room screen would press its focused button.
wait_for "$work/bot.log" "rooms ready" 60 || { cat "$work/bot.log"; exit 1; }
expect "screen: race" 60
end=$((SECONDS + 120))
while kill -0 $pid 2>/dev/null; do
  [ $SECONDS -lt $end ] || { echo "no results after 120 s"; tail -n 30 "$log"; cat "$work/bot.log"; exit 1; }
  xdotool key --delay 60 space 2>/dev/null || true
  sleep 0.2
done
rc=0; wait $pid || rc=$?
botrc=0; wait $botpid || botrc=$?
cat "$log"
cat "$work/bot.log"
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }
[ "$botrc" -eq 0 ] || { echo "the bot exited with $botrc"; exit 1; }
grep -q "found 'Bravo' at 127.0.0.1:$bravo_port in $directory" "$work/bot.log" || { echo "the bot did not find Bravo"; exit 1; }
grep -q "race results" "$log" || { echo "no results screen"; exit 1; }
grep -q "recent_servers" "$work/config/settings.json" && grep -q "127.0.0.1:$bravo_port" "$work/config/settings.json" ||
  { echo "Bravo is not among the recent servers"; cat "$work/config/settings.json"; exit 1; }

# Bravo stored the race, and it verifies.
shopt -s nullglob globstar
stored=("$work/Bravo"/**/*.srr)
[ "${#stored[@]}" -eq 1 ] || { echo "expected one replay on Bravo, found ${#stored[@]}"; exit 1; }
"$replay_tool" verify "${stored[@]}" | tee "$work/verify.txt"
grep -q "verified 1 of 1 replays" "$work/verify.txt" || { echo "Bravo's replay does not verify"; exit 1; }
grep -q "verified 2 racers" "$work/verify.txt" || { echo "the game and the bot did not both race"; exit 1; }
echo "browse test: ok (list screenshot $work/browse-list.png)"
