#!/usr/bin/env bash
# The game hosts a server, a bot joins its room, the game races it with scripted key presses (hard drops until it
# tops out), the results screen appears and is screenshotted, and the game quits. client_race_check then looks at
# the server's stored replay (two racers, verifies), the player's own local replay and the screenshot (two boards).
#
# usage: host_race_test.sh STACKRACE BOT CHECKER WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; bot="$2"; checker="$3"; work="$4"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"

"$stackrace" --host-port 0 --port-file "$work/port" --create-room sprint --lines 2 --room-name race \
  --auto-ready --exit-after-race --config-dir "$work/config" --data-dir "$work/data" \
  --screenshot "$work/race.png" >"$work/stackrace.log" 2>&1 &
pid=$!
botpid=""
trap 'kill $pid 2>/dev/null || true; [ -n "$botpid" ] && kill $botpid 2>/dev/null || true' EXIT

for _ in $(seq 1 300); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || { echo "no port file"; cat "$work/stackrace.log"; exit 1; }
port="$(cat "$work/port")"
for _ in $(seq 1 300); do grep -q "created room" "$work/stackrace.log" && break; sleep 0.1; done
# stackrace-bot can ask for the room list and read it before the answer came (it then says there is no such
# room and exits 2): start it again in that case.
start_bot() { "$bot" --server "127.0.0.1:$port" --count 1 --room race >"$work/bot.log" 2>&1 & botpid=$!; }
start_bot
for attempt in 1 2 3 4 5; do
  sleep 1
  if ! kill -0 $botpid 2>/dev/null && grep -q "no room named" "$work/bot.log"; then
    echo "bot attempt $attempt: $(cat "$work/bot.log" | head -n1)"; start_bot
  else
    break
  fi
done

wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid"

# Hard drops (with a move now and then) until the game has quit: we top out, the bot finishes its 2 lines.
end=$((SECONDS + 120))
for i in $(seq 1 400); do
  kill -0 $pid 2>/dev/null || break
  [ $SECONDS -lt $end ] || { echo "no results after 120 s"; tail -n 20 "$work/stackrace.log"; cat "$work/bot.log"; exit 1; }
  if (( i % 3 == 0 )); then xdotool key --delay 60 Left space; else xdotool key --delay 60 space; fi
  sleep 0.15
done

for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
rc=0; wait $pid || rc=$?
cat "$work/stackrace.log"
botrc=0; wait $botpid || botrc=$?
cat "$work/bot.log"
trap - EXIT
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }
[ "$botrc" -eq 0 ] || { echo "the bot exited with $botrc"; exit 1; }
grep -q "race results" "$work/stackrace.log" || { echo "no results screen"; exit 1; }
"$checker" "$work/data/hosted" "$work/data/replays" "$work/race.png"
