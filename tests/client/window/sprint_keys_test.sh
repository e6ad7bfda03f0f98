#!/usr/bin/env bash
# The game in a real window under Xvfb (Mesa software rendering): start a sprint with a fixed seed, type moves,
# rotations, a hold and hard drops with xdotool, take a screenshot with F12, quit with Esc then Q. Then
# client_window_check looks at the saved replay (exact button changes, verifies) and the screenshot's pixels.
#
# usage: sprint_keys_test.sh STACKRACE CHECKER WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; checker="$2"; work="$3"
seed=1

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
# The default settings, except that this short game, quit after a few seconds, is stored (a game given up in its first
# keep_given_up_after_s seconds is not).
mkdir -p "$work/config"
cat >"$work/config/settings.json" <<'JSON'
{"version": 3, "player_name": "player", "servers": {"names": [], "addresses": []},
 "handling": {"das_ms": 167, "arr_ms": 33, "sdf": 20, "dcd_ms": 0},
 "visuals": {"ghost": true, "grid": true, "board_scale": 1.0, "skin": "guideline"},
 "frame_cap": 0, "keep_given_up_after_s": 0,
 "keys": {"move_left": ["Left"], "move_right": ["Right"], "soft_drop": ["Down"], "hard_drop": ["Space"],
          "rotate_cw": ["Up", "X"], "rotate_ccw": ["Z", "Left Ctrl", "Right Ctrl"], "rotate_180": ["A"],
          "hold": ["C", "Left Shift", "Right Shift"], "restart": ["R"]},
 "pad": {"move_left": ["Pad Left", "Pad Stick Left"], "move_right": ["Pad Right", "Pad Stick Right"],
         "soft_drop": ["Pad Down", "Pad Stick Down"], "hard_drop": ["Pad Up"], "rotate_cw": ["Pad B"],
         "rotate_ccw": ["Pad A"], "rotate_180": ["Pad Y"], "hold": ["Pad LB", "Pad RB"], "restart": ["Pad Back"]}}
JSON

"$stackrace" --mode sprint --seed "$seed" --countdown-ms 0 --exit-after-game \
  --config-dir "$work/config" --data-dir "$work/data" --screenshot "$work/screenshot.png" \
  >"$work/stackrace.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid"
sleep 1  # first frames

keys() { xdotool key --delay 120 "$@"; }
keys Left Left space        # J: two left, hard drop
keys Up space               # T: rotate clockwise, hard drop
keys x space                # L: rotate clockwise (X), hard drop
keys c                      # Z into hold, I comes out
keys Right Right Right space
keys space                  # S: straight down
xdotool keydown Right; sleep 1.0; xdotool keyup Right   # O: auto-shift to the wall (DAS + 3 ARR = 0.27 s)
keys space
sleep 0.6                   # let the lock flash fade
keys F12
sleep 0.5
keys Escape                 # pause
sleep 0.3
keys q                      # quit: the game is saved as abandoned, and --exit-after-game ends the program

for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
if kill -0 $pid 2>/dev/null; then
  echo "stackrace did not exit after the game"; cat "$work/stackrace.log"; exit 1
fi
trap - EXIT
rc=0; wait $pid || rc=$?
cat "$work/stackrace.log"
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }
"$checker" "$work/data/replays" "$work/screenshot.png" "$seed"
