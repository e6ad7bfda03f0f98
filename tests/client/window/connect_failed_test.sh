#!/usr/bin/env bash
# `stackrace --connect` to an address where nothing answers: the multiplayer menu says so and its Connect button has
# the keyboard, so Enter tries again; Esc cancels that attempt and Esc again goes to the main menu, where Esc only
# moves to Quit (the game keeps running) and Enter on Quit quits. Without a sound device (Xvfb) stderr holds no
# "AL lib" line.
#
# usage: connect_failed_test.sh STACKRACE WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; work="$2"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
log="$work/stackrace.log"
# UDP port 9 (discard) on loopback: nothing listens there, so nothing answers.
"$stackrace" --connect 127.0.0.1:9 --config-dir "$work/config" --data-dir "$work/data" >"$log" 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null || true' EXIT

mark=0  # expect (test_env.sh) reads the log from here
expect "connecting to 127.0.0.1:9"
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
expect "could not join: nothing answered at 127.0.0.1:9" 30
keys Return                               # Connect has the keyboard: a second attempt
expect "connecting to 127.0.0.1:9"
keys Escape                               # cancels it
expect "connecting cancelled"
keys Escape                               # the multiplayer menu's Back
expect "screen: main menu"
keys Escape                               # moves to Quit, quits nothing
sleep 1
kill -0 $pid 2>/dev/null || { echo "FAIL: Esc on the main menu quit the game"; cat "$log"; exit 1; }
keys Return                               # Quit
for _ in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
kill -0 $pid 2>/dev/null && { echo "FAIL: Enter on Quit did not quit"; cat "$log"; exit 1; }
trap - EXIT
rc=0; wait $pid || rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: stackrace exited with $rc"; cat "$log"; exit 1; }
# No sound device under Xvfb: said once in the game's log, without OpenAL's own "AL lib: (EE)" line on stderr.
grep -q "sound off: no audio device" "$log" || { echo "FAIL: no word of the missing sound device"; exit 1; }
if grep -q "AL lib" "$log"; then echo "FAIL: OpenAL's own error line reached stderr"; grep "AL lib" "$log"; exit 1; fi
echo "connect failed test passed"
