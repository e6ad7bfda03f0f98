#!/usr/bin/env bash
# The replay browser with the mouse and the keyboard together: two stored games (sprints with seeds 1 and 2, topped
# out by hard drops), the list opened with keys, the mouse moved onto the second row (the older game, seed 1), and
# Enter: the game under the mouse is the one watched, not the keyboard's first row.
#
# usage: replay_hover_test.sh STACKRACE REPLAY_TOOL WORK_DIR      (run by ctest inside xvfb-run, 1280x720)
set -euo pipefail
stackrace="$1"; tool="$2"; work="$3"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
mkdir -p "$work/config"
echo '{"version": 3, "player_name": "tester"}' >"$work/config/settings.json"
pid=""
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null || true' EXIT
for seed in 1 2; do
  log="$work/game$seed.log"
  "$stackrace" --mode sprint --seed "$seed" --countdown-ms 0 --exit-after-game --config-dir "$work/config" \
    --data-dir "$work/data" >"$log" 2>&1 &
  pid=$!
  wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
  xdotool windowfocus --sync "$wid" || true
  end=$((SECONDS + 60))
  until grep -q "Topped out" "$log"; do
    [ $SECONDS -lt $end ] || { echo "FAIL: game $seed did not top out"; tail -n 20 "$log"; exit 1; }
    xdotool key space; sleep 0.1
  done
  sleep 0.5
  keys Escape                               # the results' Back to menu: --exit-after-game quits
  wait $pid
done

log="$work/stackrace.log"
"$stackrace" --config-dir "$work/config" --data-dir "$work/data" >"$log" 2>&1 &
pid=$!
mark=0
expect "screen: main menu"
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
keys Down Down Down Down Return           # Solo, Race the bot, Puzzles, Multiplayer, [Replays]
expect "screen: replays"
# The rows of "On this computer" at 1280x720: the newest at y 177, the one below at y 199. Two moves: ImGui reads
# the motion.
xdotool mousemove --window "$wid" 300 199; sleep 0.3; xdotool mousemove --window "$wid" 302 200; sleep 0.5
keys Return
expect "viewing .*\.srr: verified"
watched="$(grep -o 'viewing [^:]*\.srr' "$log" | head -n1 | cut -d' ' -f2)"
"$tool" info "$watched" | grep -q '^seed: 1$' || { echo "FAIL: Enter watched $watched, not the game under the mouse"; "$tool" info "$watched"; exit 1; }
kill -TERM $pid
rc=0; wait $pid || rc=$?
trap - EXIT
[ "$rc" -eq 0 ] || { echo "FAIL: stackrace exited with $rc"; exit 1; }
echo "replay hover test passed"
