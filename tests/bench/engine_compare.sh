#!/usr/bin/env bash
# The engine's speed against another revision, measured in one run: builds engine_bench (tests/bench/engine_bench.cpp)
# from BASE and from this tree (Release, only that target), runs the two alternately ROUNDS times, and prints each
# benchmark's median CPU time on both sides and the ratio base / this tree (2.00x: this tree takes half the time).
#
#   tests/bench/engine_compare.sh 2d9ab59        # against that commit, 5 rounds
#   tests/bench/engine_compare.sh main 9         # against main, 9 rounds
#
#   BUILD_DIR=DIR   where both builds go (default build/engine-compare; BASE's source is exported there too)
#   FILTER=REGEX    the benchmarks compared (default the sprint logs: BM_ButtonChangesSprintLogs|BM_Sprint40Resimulate)
#
# Each round runs each program once with 5 repetitions and keeps their median; the figures printed are the medians
# of those over the rounds, then the lowest and highest round medians of each side (the spread a busy machine
# gives). Alternating gives both sides the same share of a busy machine's load.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
base_rev=${1:?usage: tests/bench/engine_compare.sh BASE_REVISION [ROUNDS]}
rounds=${2:-5}
dir=${BUILD_DIR:-build/engine-compare}
filter=${FILTER:-BM_ButtonChangesSprintLogs|BM_Sprint40Resimulate}
say() { printf 'engine_compare.sh: %s\n' "$*" >&2; }

base=$(git rev-parse --verify --short "$base_rev^{commit}")
build() {  # build SOURCE_DIR BUILD_DIR
  if [ ! -f "$2/build.ninja" ]; then
    cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKRACE_TESTS=OFF -DSTACKRACE_BENCH=ON \
      -DSTACKRACE_CLIENT=OFF >/dev/null
  fi
  cmake --build "$2" -j2 --target engine_bench >/dev/null
}
if [ ! -d "$dir/base-$base/src" ]; then
  say "exporting $base to $dir/base-$base/src"
  mkdir -p "$dir/base-$base/src"
  git archive "$base" | tar -x -C "$dir/base-$base/src"
fi
say "building engine_bench of $base and of this tree"
build "$dir/base-$base/src" "$dir/base-$base/build"
build . "$dir/this"

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for ((round = 1; round <= rounds; ++round)); do
  say "round $round of $rounds"
  for side in base this; do
    if [ "$side" = base ]; then prog="$dir/base-$base/build/tests/bench/engine_bench"; else prog="$dir/this/tests/bench/engine_bench"; fi
    # Rows: name_median  real_time unit  cpu_time unit  iterations  counters
    "$prog" --benchmark_filter="$filter" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
      --benchmark_color=false 2>/dev/null |
      awk -v side="$side" '$1 ~ /_median$/ { sub(/_median$/, "", $1); print side, $1, $4, $5 }' >>"$results"
  done
done

printf '%-30s %16s %16s %8s   %s\n' benchmark "base $base" "this tree" ratio "spread over rounds (base; this)"
sort -k2,2 -k1,1 -k3,3g "$results" | awk '
  function median(side, name,   n) { n = count[side, name]; return n % 2 ? v[side, name, (n + 1) / 2] \
                                     : (v[side, name, n / 2] + v[side, name, n / 2 + 1]) / 2 }
  { v[$1, $2, ++count[$1, $2]] = $3; unit[$2] = $4; names[$2] = 1 }
  END {
    for (name in names) {
      b = median("base", name); t = median("this", name)
      printf "%-30s %13.1f %-2s %13.1f %-2s %7.2fx   %.1f-%.1f; %.1f-%.1f\n", name, b, unit[name], t, unit[name], b / t,
        v["base", name, 1], v["base", name, count["base", name]], v["this", name, 1], v["this", name, count["this", name]]
    }
  }' | sort
