#!/usr/bin/env bash
# The abuse suite at full size (tests/abuse/README.md): builds stackrace-abuse and stackrace-server in a Release tree of
# their own and runs every attack of issue 15 in turn, then all at once, each against a fresh server with its default
# limits while 4 rooms of 4 bots race two 20-line sprints beside it, and prints the table and "abuse: PASS" or
# "abuse: FAIL (...)". Takes about 10 minutes on two cores (less once the server holds).
#
#   tests/bench/abuse.sh                              # every attack, then all at once
#   tests/bench/abuse.sh --attack list                # arguments go to stackrace-abuse (--help)
#   tests/bench/abuse.sh --attack all --addresses 5   # from a handful of addresses
#   tests/bench/abuse.sh --attack none                # the honest races alone: this machine's baseline
#
#   BUILD_DIR=DIR  the Release tree (default build/abuse; it builds only stackrace-abuse and what it needs)
#   ABUSE_NICE=N   run at this niceness (default 0)
#
# The exit status is stackrace-abuse's: 0 every goal met, 1 not, 2 bad arguments (and 1 if the build fails).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=${BUILD_DIR:-build/abuse}
say() { printf 'abuse.sh: %s\n' "$*" >&2; }

deploy/install-deps.sh
# The program is built with the tests (it reuses the netmatrix's bot pump), so this tree has them on and the
# sanitizers and benchmarks off; it is not build/release, whose configuration ./stackrace.sh owns.
if [ ! -f "$build/build.ninja" ]; then
  say "configuring $build (Release, tests on)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKRACE_TESTS=ON -DSTACKRACE_SANITIZE=OFF \
    -DSTACKRACE_BENCH=OFF -DSTACKRACE_CLIENT=OFF >/dev/null
fi
say "building stackrace-abuse and stackrace-server in $build"
cmake --build "$build" -j2 --target stackrace-abuse stackrace-server
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true  # 1,100 silent connections are one socket, but the bots are many
exec nice -n "${ABUSE_NICE:-0}" "$build/tests/abuse/stackrace-abuse" "$@"
