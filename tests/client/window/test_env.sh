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
