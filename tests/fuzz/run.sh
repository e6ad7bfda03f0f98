#!/usr/bin/env bash
# Fuzz smoke run for the replay decoders (called by ./stackrace.sh test after ctest; runs standalone too).
#
# 1. Builds tests/fuzz with clang++ (libFuzzer + ASan + UBSan) in build/fuzz.
# 2. Runs every seed input once: tests/data (golden replays and JSON) and tests/fuzz/corpus.
# 3. Fuzzes each target for FUZZ_SECONDS (default 20) seconds, starting from the seeds.
# Any crash, sanitizer report or broken round-trip property fails the run; the input is saved in
# build/fuzz/artifacts/. Reproduce one with: build/fuzz/fuzz_replay_binary build/fuzz/artifacts/<file>
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="$ROOT/build/fuzz"
SECONDS_PER_TARGET="${FUZZ_SECONDS:-20}"
JOBS=2

say() { printf 'fuzz: %s\n' "$*" >&2; }

command -v clang++ >/dev/null 2>&1 || { say "clang++ is not installed (deploy/install-deps.sh)"; exit 1; }

mkdir -p "$BUILD/artifacts"
if [ ! -f "$BUILD/build.ninja" ]; then
  say "configuring $BUILD"
  cmake -S "$ROOT/tests/fuzz" -B "$BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=Fuzz >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log" >&2; exit 1; }
fi
say "building $BUILD"
cmake --build "$BUILD" -j"$JOBS" >"$BUILD/build.log" 2>&1 || { cat "$BUILD/build.log" >&2; exit 1; }

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

seeds=()
while IFS= read -r f; do seeds+=("$f"); done < <(find "$ROOT/tests/data" "$ROOT/tests/fuzz/corpus" -type f | sort)

for target in replay_binary replay_json; do
  bin="$BUILD/fuzz_$target"
  say "$target: ${#seeds[@]} seed inputs"
  "$bin" -artifact_prefix="$BUILD/artifacts/$target-" "${seeds[@]}" >"$BUILD/$target-seeds.log" 2>&1 || {
    tail -n 40 "$BUILD/$target-seeds.log" >&2
    say "$target: a seed input failed (log: $BUILD/$target-seeds.log)"
    exit 1
  }
  corpus="$BUILD/corpus-$target"
  mkdir -p "$corpus"
  dict=()
  [ "$target" = replay_json ] && dict=(-dict="$ROOT/tests/fuzz/replay_json.dict")
  say "$target: fuzzing for $SECONDS_PER_TARGET s"
  "$bin" "$corpus" "$ROOT/tests/data" "$ROOT/tests/fuzz/corpus" "${dict[@]}" \
    -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -artifact_prefix="$BUILD/artifacts/$target-" -print_final_stats=1 >"$BUILD/$target-fuzz.log" 2>&1 || {
    tail -n 60 "$BUILD/$target-fuzz.log" >&2
    say "$target: fuzzing found a failure (log: $BUILD/$target-fuzz.log, inputs: $BUILD/artifacts)"
    exit 1
  }
  say "$target: $(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$BUILD/$target-fuzz.log" | grep -Eo '[0-9]+' || echo '?') runs, no failure"
done
say "all fuzz targets passed"
