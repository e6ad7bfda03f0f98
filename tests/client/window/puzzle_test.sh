#!/usr/bin/env bash
# Puzzles with the keyboard alone, in a real window under Xvfb: open the stage list, clear stage 1 with its
# solution (the I drops down the well, spins flat into the bottom row, the second I fills the well), take Next stage,
# hard-drop stage 2 badly (one retry left), retry and press R (restart uses the attempt: failed), go back to the list.
# Then puzzles.json must say stage 1 cleared on attempt 1 and stage 2 failed, and the three attempts must be stored
# as replays that verify and name their stage (kept although given up within keep_given_up_after_s, 10 s here).
#
# usage: puzzle_test.sh STACKRACE STACKRACE_REPLAY WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; replay_tool="$2"; work="$3"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
# The default settings, except an instant soft drop (sdf 0), so the solution does not depend on how long Down is held.
mkdir -p "$work/config"
cat >"$work/config/settings.json" <<'JSON'
{"version": 3, "player_name": "player", "servers": {"names": [], "addresses": []},
 "handling": {"das_ms": 167, "arr_ms": 33, "sdf": 0, "dcd_ms": 0},
 "visuals": {"ghost": true, "grid": true, "board_scale": 1.0, "skin": "guideline"},
 "frame_cap": 0, "keep_given_up_after_s": 10,
 "keys": {"move_left": ["Left"], "move_right": ["Right"], "soft_drop": ["Down"], "hard_drop": ["Space"],
          "rotate_cw": ["Up", "X"], "rotate_ccw": ["Z", "Left Ctrl", "Right Ctrl"], "rotate_180": ["A"],
          "hold": ["C", "Left Shift", "Right Shift"], "restart": ["R"]},
 "pad": {"move_left": ["Pad Left", "Pad Stick Left"], "move_right": ["Pad Right", "Pad Stick Right"],
         "soft_drop": ["Pad Down", "Pad Stick Down"], "hard_drop": ["Pad Up"], "rotate_cw": ["Pad B"],
         "rotate_ccw": ["Pad A"], "rotate_180": ["Pad Y"], "hold": ["Pad LB", "Pad RB"], "restart": ["Pad Back"]}}
JSON
log="$work/stackrace.log"
"$stackrace" --countdown-ms 0 --config-dir "$work/config" --data-dir "$work/data" --screenshot "$work/shot.png" \
  >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT

wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid"
wait_for "$log" "screen: main menu" 20
keys() { xdotool key --delay 150 "$@"; }

keys Down Down Return                                   # Main menu > Puzzles
wait_for "$log" "screen: puzzles" 20
keys Return                                             # stage 1, the next one
wait_for "$log" "puzzle stage 1 (I-spin), attempt 1 of 2" 20
sleep 0.3
keys Up                                                 # the I upright over the well
keys Down                                               # soft drop to the well's floor (sdf 0)
keys Up space                                           # spin flat into the bottom row
sleep 0.3
keys Up space                                           # the second I fills the well
wait_for "$log" "puzzle attempt: cleared" 20
sleep 0.5
keys Return                                             # Next stage
wait_for "$log" "puzzle stage 2 (I-spin II), attempt 1 of 2" 20
sleep 0.3
keys space space                                        # both pieces dropped straight: cells left
wait_for "$log" "puzzle attempt: not cleared, one retry left" 20
sleep 0.5
keys Return                                             # Retry
wait_for "$log" "puzzle stage 2 (I-spin II), attempt 2 of 2" 20
sleep 0.3
keys Up r                                               # a key pressed, then R: the attempt is used
wait_for "$log" "puzzle attempt: failed" 20
sleep 0.5
keys Escape                                             # Back to stages
wait_for "$log" "screen: puzzles" 20
keys Escape
sleep 0.5
keys Escape                                             # on the main menu Esc only moves to Quit:
sleep 0.5
kill -0 $pid || { echo "FAIL: Esc on the main menu quit the game"; exit 1; }
keys Return                                             # and Enter on it quits
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
trap - EXIT
wait $pid

progress="$work/config/puzzles.json"
grep -q '"I-spin": "cleared_attempt_1"' "$progress" || { echo "stage 1 not cleared in $progress"; cat "$progress"; exit 1; }
grep -q '"I-spin II": "failed"' "$progress" || { echo "stage 2 not failed in $progress"; cat "$progress"; exit 1; }
[ "$(grep -c '"not_tried"' "$progress")" = 22 ] || { echo "other stages touched"; cat "$progress"; exit 1; }

replays=("$work"/data/replays/*.srr)
[ "${#replays[@]}" = 3 ] || { echo "expected 3 stored attempts, found ${#replays[@]}"; exit 1; }
for r in "${replays[@]}"; do "$replay_tool" verify "$r" >/dev/null || { echo "$r does not verify"; exit 1; }; done
grep -q "puzzle 1: I-spin" < <(for r in "${replays[@]}"; do "$replay_tool" info "$r"; done) ||
  { echo "no replay names stage 1"; exit 1; }
echo "puzzles: stage 1 cleared, stage 2 failed, 3 attempts stored and verified"
