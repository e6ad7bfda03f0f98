#!/usr/bin/env bash
# A stackrace-server runs a race of two stackrace-bots; the game joins it part-way as a spectator (--spectate),
# screenshots every board, clicks the second board to enlarge it and screenshots again, and quits after the results.
# client_spectate_check then compares each drawn board with the server's replay at the game time it shows.
#
# usage: spectate_test.sh STACKRACE SERVER BOT CHECKER WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; server="$2"; bot="$3"; checker="$4"; work="$5"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

"$server" --port 0 --bind 127.0.0.1 --data-dir "$work/server" --name spectest >"$work/server.log" 2>&1 &
pids+=($!)
wait_for "$work/server.log" "listening on" 30
port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -n1)"
[ -n "$port" ] || { echo "no port in the server log"; cat "$work/server.log"; exit 1; }

# Two bots in one room, 18 lines at 3 pieces per second: a race of about 17 s (room for a slow start).
"$bot" --server "127.0.0.1:$port" --count 2 --create sprint --lines 18 --room race --room-size 2 --races 1 \
  --pps 3 --timeout 90 >"$work/bot.log" 2>&1 &
botpid=$!
pids+=($botpid)
wait_for "$work/server.log" "race 1 starts" 30
sleep 4  # the 3 s countdown, then a second of racing at least before the spectator joins

"$stackrace" --connect "127.0.0.1:$port" --spectate race --exit-after-race --config-dir "$work/config" \
  --data-dir "$work/data" --screenshot "$work/shot.png" >"$work/stackrace.log" 2>&1 &
pid=$!
pids+=($pid)
wait_for "$work/stackrace.log" "caught up, watching live" 30
# Joined part-way: the server sent the race so far (CatchUpStart), not a fresh countdown.
grep -q "race 1: joined [1-9][0-9]*\.[0-9] s in" "$work/stackrace.log" || { echo "not joined mid-race"; exit 1; }
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
sleep 1.5  # the race goes on: live boards, not just the caught-up ones

# shot NAME: F12, wait for the game to say it wrote the screenshot, keep it as NAME.png.
shot() {
  local before
  before="$(grep -c "screenshot written" "$work/stackrace.log" || true)"
  xdotool key F12
  local end=$((SECONDS + 20))
  until [ "$(grep -c "screenshot written" "$work/stackrace.log" || true)" -gt "$before" ]; do
    [ $SECONDS -lt $end ] || { echo "no screenshot"; tail -n 20 "$work/stackrace.log"; return 1; }
    sleep 0.1
  done
  cp "$work/shot.png" "$work/$1.png"
  cp "$work/shot.png.layout" "$work/$1.png.layout"
  cat "$work/$1.png.layout"
}
shot grid

# Click the middle of the second board's matrix (layout line 2: board 1 X Y CELL ...).
read -r _ _ mx my cell _ < <(sed -n 2p "$work/grid.png.layout")
cx="$(awk -v x="$mx" -v c="$cell" 'BEGIN { printf "%d", x + 5 * c }')"
cy="$(awk -v y="$my" -v c="$cell" 'BEGIN { printf "%d", y + 10 * c }')"
xdotool mousemove --window "$wid" "$cx" "$cy"
sleep 0.3
xdotool click 1
sleep 0.5
shot big

# The game quits by itself a moment after the race's results (--exit-after-race).
end=$((SECONDS + 60))
while kill -0 $pid 2>/dev/null; do
  [ $SECONDS -lt $end ] || { echo "the game did not quit after the race"; tail -n 30 "$work/stackrace.log"; exit 1; }
  sleep 0.2
done
rc=0; wait $pid || rc=$?
cat "$work/stackrace.log"
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }
grep -q "race results" "$work/stackrace.log" || { echo "the spectator saw no results"; exit 1; }
botrc=0; wait $botpid || botrc=$?
cat "$work/bot.log"
[ "$botrc" -eq 0 ] || { echo "the bots exited with $botrc"; exit 1; }
for _ in $(seq 1 50); do ls "$work/server/"*.srr >/dev/null 2>&1 && break; sleep 0.1; done
"$checker" "$work/server" "$work/grid.png" "$work/big.png"
