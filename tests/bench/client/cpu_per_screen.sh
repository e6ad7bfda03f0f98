#!/usr/bin/env bash
# CPU per screen: starts the game and visits a sprint running, the game paused, the results, the main menu, and the
# game with the window unfocused (another window has the focus: the game pauses) and unmapped (what minimising does;
# without a window manager GLFW cannot tell it is iconified), and prints how much of one core the process used on
# each (its own and its GL driver's threads: utime + stime from /proc/PID/stat over ~5 s) and the frames per second it
# drew (from the "frames:" lines the game logs at debug level each second, the first of each sample left out as it
# began earlier; "-" when the game does not log them). KEEP_LOG=FILE keeps the game's log.
#
# usage: cpu_per_screen.sh STACKRACE [SECONDS_PER_SCREEN]
# A benchmark, not a test: it asserts nothing. Without $DISPLAY it runs itself under xvfb-run (Mesa's software
# renderer, which does not honour vsync: the frame cap is what paces there). Needs xdotool and xeyes (x11-apps;
# deploy/install-deps.sh installs both).
set -euo pipefail
stackrace="$(realpath "$1")"; seconds="${2:-5}"
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "$stackrace" "$seconds"
fi

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; [ -n "${KEEP_LOG:-}" ] && cp "$work/stackrace.log" "$KEEP_LOG"; rm -rf "$work"; }
trap cleanup EXIT

"$stackrace" --mode sprint --seed 1 --countdown-ms 0 --config-dir "$work/config" --data-dir "$work/data" \
  --log-level debug >"$work/stackrace.log" 2>&1 &
pid=$!; pids+=("$pid")
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid"
sleep 1  # first frames, fonts

ticks_per_s="$(getconf CLK_TCK)"
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }  # utime + stime (fields 14, 15; no spaces in comm)
printf '%-34s %8s %8s\n' "screen" "CPU %" "fps"
# measure LABEL: CPU and frames over $seconds on the screen as it is now.
measure() {
  sleep 0.5  # the screen change settles
  local lines0 t0 c0 t1 c1 fps
  lines0="$(wc -l <"$work/stackrace.log")"
  t0="$(date +%s.%N)"; c0="$(cpu_ticks)"
  sleep "$seconds"
  t1="$(date +%s.%N)"; c1="$(cpu_ticks)"
  fps="$(tail -n +"$((lines0 + 1))" "$work/stackrace.log" |
    awk '/frames: / && seen++ { for (i = 1; i <= NF; ++i) if ($i == "frames:") { s += $(i + 1); n++ } }
         END { if (n) printf "%.0f", s / n; else print "-" }')"
  awk -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" -v hz="$ticks_per_s" -v label="$1" -v fps="$fps" \
    'BEGIN { printf "%-34s %8.1f %8s\n", label, (c1 - c0) / hz / (t1 - t0) * 100, fps }'
}
keys() { xdotool key --window "$wid" --delay 60 "$@"; }

measure "game (sprint, running)"
keys Escape
measure "game paused"
keys Escape                                     # resume, then hard drops until the stack tops out
for _ in $(seq 1 40); do keys space; done
sleep 1
grep -q "Topped out" "$work/stackrace.log" || echo "(the game did not end: the results row is not the results)"
measure "results"
keys Escape                                     # results: back to the main menu
sleep 0.5
grep -q "screen: main menu" "$work/stackrace.log" || echo "(not on the main menu)"
measure "main menu (idle)"
keys Return                                     # Solo
sleep 0.3
keys Return                                     # its first mode: a sprint
sleep 0.5
xeyes -geometry 100x100+0+0 &
pids+=("$!")
eyes="$(timeout 10 xdotool search --sync --onlyvisible --class xeyes | head -n1)"
xdotool windowfocus --sync "$eyes"
measure "game, window unfocused (pauses)"
xdotool windowunmap --sync "$wid"
measure "game, window unmapped (minimised)"
xdotool windowmap --sync "$wid"
