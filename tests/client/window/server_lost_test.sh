#!/usr/bin/env bash
# The game races a stackrace-bot on a stackrace-server process, which is killed (SIGKILL: no goodbye) mid-race. The
# game must notice, say so (the "Connection lost" notice over the multiplayer menu), keep running, take keys on the
# menu (Enter closes the notice, Esc leaves to the main menu), quit cleanly, and have kept the player's own game as a
# local replay that verifies and says the connection was lost.
#
# usage: server_lost_test.sh STACKRACE SERVER BOT REPLAY_TOOL WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; server="$2"; bot="$3"; tool="$4"; work="$5"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done' EXIT

"$server" --port 0 --bind 127.0.0.1 --data-dir "$work/server" --name doomed >"$work/server.log" 2>&1 &
serverpid=$!
pids+=($serverpid)
wait_for "$work/server.log" "listening on" 30
port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -n1)"

"$stackrace" --connect "127.0.0.1:$port" --create-room sprint --room-name race --auto-ready --resume-seconds 5 \
  --config-dir "$work/config" --data-dir "$work/data" --screenshot "$work/lost.png" >"$work/stackrace.log" 2>&1 &
pid=$!
pids+=($pid)
wait_for "$work/server.log" "created room" 30
"$bot" --server "127.0.0.1:$port" --count 1 --room race --timeout 60 >"$work/bot.log" 2>&1 &
pids+=($!)
wait_for "$work/stackrace.log" "race 1 countdown" 30
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
sleep 3.5  # the countdown
for _ in 1 2 3; do xdotool key --delay 80 space; sleep 0.2; done

kill -9 $serverpid
# The game notices (5 s without an answer), tries to take its seat back while the game goes on (for 5 s here, a
# minute by default), then says the connection is lost.
wait_for "$work/stackrace.log" "reconnecting to take your seat back" 30
kill -0 $pid || { echo "the game died"; cat "$work/stackrace.log"; exit 1; }
wait_for "$work/stackrace.log" "back on the multiplayer menu" 40
grep -q "could not be resumed within 5 s" "$work/stackrace.log" || { echo "the loss should say the race could not be resumed"; exit 1; }
xdotool key F12  # the notice, for the record
wait_for "$work/stackrace.log" "screenshot written" 20
kill -0 $pid || { echo "the game died"; cat "$work/stackrace.log"; exit 1; }

xdotool key --delay 150 Return    # closes the notice
wait_for "$work/stackrace.log" "lost-connection notice closed" 20
xdotool key --delay 150 Escape    # the multiplayer menu's Back: the main menu
sleep 0.5
kill -TERM $pid                   # quits like closing the window
rc=0; wait $pid || rc=$?
cat "$work/stackrace.log"
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }

shopt -s nullglob
files=("$work/data/replays/"*.srr)
[ "${#files[@]}" -eq 1 ] || { echo "expected our game as one local replay, found ${#files[@]}"; exit 1; }
"$tool" verify "${files[0]}"
info="$("$tool" info "${files[0]}")"
echo "$info"
grep -q "place: doomed" <<<"$info" || { echo "the replay should name the server"; exit 1; }
# Our game went on while the game tried to take its seat back: cut off by the loss, or topped out by then.
grep -Eq "^  0 player: (disconnected|topped out \([a-z_]+\)) at [0-9.]+ s, 0 lines, [1-9][0-9]* pieces" <<<"$info" ||
  { echo "the replay should hold our game, cut off by the lost connection"; exit 1; }
echo "server lost test passed"
