#!/usr/bin/env bash
# Issue 17: an external TBP bot's reachable moves must never be forfeited. Plays GAMES (100) marathon games from
# level 9 (gravity levels 9-15) and GAMES master games (20G) with tests/bot/tbp_tricky.py, which asks for tucks,
# spins and far placements it proved reachable, and prints one summary line per mode:
#   tbp-reach: mode=marathon games=100 forfeits=0 played_other=0 wrong_spin=0 planning: moves=... median=...ms ...
# Usage: tests/bench/bot/tbp_reach.sh [BUILD_DIR (build/release)] [GAMES (100)]
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${1:-build/release}
games=${2:-100}
bot="$build/bot/stackrace-bot"
[[ -x "$bot" ]] || { echo "tbp_reach.sh: build $bot first" >&2; exit 2; }
report=$(mktemp)
trap 'rm -f "$report"' EXIT
status=0
for mode in "marathon --level 9" "master"; do
  : > "$report"
  out=$("$bot" --mode $mode --seed 1 --games "$games" --quiet \
        --external "python3 tests/bot/tbp_tricky.py --report $report" 2>/dev/null)
  forfeits=$(sed -n 's/.* forfeits=\([0-9]*\).*/\1/p' <<< "$out")
  tricky=$(cat "$report")
  other=$(sed -n 's/.* played_other=\([0-9]*\).*/\1/p' <<< "$tricky")
  spin=$(sed -n 's/.* wrong_spin=\([0-9]*\).*/\1/p' <<< "$tricky")
  planning=$(grep '^planning:' <<< "$out" || true)
  echo "tbp-reach: mode=${mode%% *} games=$games forfeits=$forfeits played_other=$other wrong_spin=$spin $planning"
  [[ "$forfeits" == 0 && "$other" == 0 && "$spin" == 0 ]] || status=1
done
exit $status
