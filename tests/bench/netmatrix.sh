#!/usr/bin/env bash
# The full network matrix (tests/netsim/README.md, "The network matrix"): builds stackrace-netmatrix in a Release tree
# of its own and runs it with its defaults, every profile with 20 races of 8 racers through a 40-line sprint, then
# prints the table and "netmatrix: PASS" or "netmatrix: FAIL (...)". Takes about 7 minutes on two cores.
#
#   tests/bench/netmatrix.sh                                   # the whole matrix
#   tests/bench/netmatrix.sh --profiles mobile --races 4       # arguments go to stackrace-netmatrix (--help)
#   tests/bench/netmatrix.sh --csv /tmp/netmatrix.csv          # the figures as CSV too
#
#   BUILD_DIR=DIR    the Release tree (default build/netmatrix; it builds only stackrace-netmatrix and what it needs)
#   NETMATRIX_NICE=N run at this niceness (default 0)
#
# The exit status is stackrace-netmatrix's: 0 pass, 1 fail, 2 bad arguments (and 1 if the build fails).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=${BUILD_DIR:-build/netmatrix}
say() { printf 'netmatrix.sh: %s\n' "$*" >&2; }

deploy/install-deps.sh
# The program is built with the tests (it reuses the server tests' fixture), so this tree has them on and the
# sanitizers and benchmarks off; it is not build/release, whose configuration ./stackrace.sh owns.
if [ ! -f "$build/build.ninja" ]; then
  say "configuring $build (Release, tests on)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKRACE_TESTS=ON -DSTACKRACE_SANITIZE=OFF \
    -DSTACKRACE_BENCH=OFF -DSTACKRACE_CLIENT=OFF >/dev/null
fi
say "building stackrace-netmatrix in $build"
cmake --build "$build" -j2 --target stackrace-netmatrix
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true  # every reconnect attempt through the proxy is a socket
exec nice -n "${NETMATRIX_NICE:-0}" "$build/tests/netsim/stackrace-netmatrix" "$@"
