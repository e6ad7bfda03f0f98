# Shared by the Xvfb window tests (sourced, not run).

# fresh_work_dir DIR: an empty DIR, and the game's config and data kept inside it (never the real home). Mesa and the
# X libraries leak at exit by design, so LeakSanitizer is off for the game.
fresh_work_dir() {
  rm -rf "$1"; mkdir -p "$1"
  export XDG_CONFIG_HOME="$1/xdg-config" XDG_DATA_HOME="$1/xdg-data"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
}

# wait_for FILE PATTERN SECONDS: poll until the file holds the pattern; else print its tail and fail.
wait_for() {
  local end=$((SECONDS + $3))
  until grep -q "$2" "$1" 2>/dev/null; do
    [ $SECONDS -lt $end ] || { echo "timed out waiting for '$2' in $1"; tail -n 30 "$1"; return 1; }
    sleep 0.1
  done
}

# expect PATTERN [SECONDS]: a line of the game's log ($log) after the one the last expect matched shows the extended
# regular expression within SECONDS (default 20: the frames after a key), else fail with the log's tail and a
# screenshot (F12). The matched line is remembered in $mark (start it at 0).
expect() {
  local end=$((SECONDS + ${2:-20})) at=""
  until at="$(tail -n +$((mark + 1)) "$log" | grep -n -E "$1" | head -n1 | cut -d: -f1)"; [ -n "$at" ]; do
    [ $SECONDS -lt $end ] || {
      echo "FAIL: expected '$1'"; xdotool key F12; sleep 1; tail -n 30 "$log"; exit 1
    }
    sleep 0.1
  done
  mark=$((mark + at))
  echo "ok: $1"
  sleep 0.4  # a new screen takes its keyboard focus in its first frames
}

# expect_both PATTERN1 PATTERN2: both lines after $mark, in either order (a screen's change and the answer it asked
# for can be logged in the same frame, either first); $mark moves to the later of the two.
expect_both() {
  local from=$mark first
  expect "$1"; first=$mark
  mark=$from; expect "$2"
  [ "$first" -le "$mark" ] || mark=$first
}

# keys KEY...: xdotool key presses, 200 ms apart.
keys() { xdotool key --delay 200 "$@"; }
