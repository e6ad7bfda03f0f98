#!/usr/bin/env bash
# Key timing: how late the game stamps key changes. Starts a solo sprint (fixed seed, no countdown) at a frame cap,
# sends key presses and releases through XTest at random moments (key_timing.py send: moves and rotations, never a
# drop), quits so the replay is saved, and compares each change's stamp in the replay with the moment it was sent
# (key_timing.py compare: the error beyond the run's best case, p50 / p99 / max in ms). The design it measures and
# figures: client/README.md, "Threads".
#
# usage: key_timing.sh STACKRACE STACKRACE_REPLAY [FRAME_CAP [EVENTS [SEED]]]      (defaults: 60, 400, 1)
# A benchmark, not a test: it asserts nothing. Without $DISPLAY it runs itself under xvfb-run (Mesa's llvmpipe,
# which ignores vsync, so the frame cap paces). BUSY=N also runs N busy loops (nice 10) during the run, to see a
# loaded machine. GAME_ARGS adds options to the game's command line. KEEP=DIR keeps the game's log, the sends and the
# replay's JSON in DIR. STACKRACE_GLFW_CONTEXT=1 makes the game draw through GLFW's context (the fallback). Needs
# python3, xdotool, libX11 and libXtst (the driver calls them through ctypes).
set -euo pipefail
stackrace="$(realpath "$1")"; replay_tool="$(realpath "$2")"
cap="${3:-60}"; events="${4:-400}"; seed="${5:-1}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "$stackrace" "$replay_tool" "$cap" "$events" "$seed"
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp -r "$work"/. "$KEEP"/; fi
  rm -rf "$work"
}
trap cleanup EXIT

cap_args=(--frame-cap "$cap")

"$stackrace" --mode sprint --seed "$seed" --countdown-ms 0 --exit-after-game "${cap_args[@]}" \
  --config-dir "$work/config" --data-dir "$work/data" --log-level debug ${GAME_ARGS:-} >"$work/stackrace.log" 2>&1 &
pid=$!; pids+=("$pid")
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid"
sleep 1  # first frames, fonts

for _ in $(seq 1 "${BUSY:-0}"); do
  nice -n 10 sh -c 'while :; do :; done' &
  pids+=("$!")
done
python3 "$here/key_timing.py" send "$events" "$seed" >"$work/sends.txt"

xdotool key --delay 200 Escape q  # pause, quit: saved as abandoned; --exit-after-game ends the program
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
  echo "stackrace did not exit after the game"; tail -n 20 "$work/stackrace.log"; exit 1
fi
replay="$(find "$work/data" -name '*.srr' | head -n1)"
[ -n "$replay" ] || { echo "no replay saved"; tail -n 20 "$work/stackrace.log"; exit 1; }
"$replay_tool" export --json "$replay" -o "$work/replay.json"
fps="$(awk '/frames: / { for (i = 1; i <= NF; ++i) if ($i == "frames:") { s += $(i + 1); n++ } }
            END { if (n) printf "%.0f", s / n; else print "-" }' "$work/stackrace.log")"
printf 'frame cap %s (%s fps drawn), busy loops %s: ' "$cap" "$fps" "${BUSY:-0}"
python3 "$here/key_timing.py" compare "$work/sends.txt" "$work/replay.json"
