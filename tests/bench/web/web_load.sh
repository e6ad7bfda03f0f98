#!/usr/bin/env bash
# The web pages under load (web/README.md, "Speed"; issue 27): builds stackrace-webload and stackrace-server in the
# abuse suite's Release tree and runs a race of 8 bots alone, then another beside 500 live pages following it and 50
# clients hammering the API and the downloads, each from addresses of their own on loopback. Prints the racers' relay
# p50/p99 both times, removals, the watchers' delay p50/p99, the hammers' answers, the server's peak memory and CPU,
# then "webload: PASS" or "webload: FAIL (...)". About two minutes.
#
#   tests/bench/web/web_load.sh                          # 500 watchers, 50 hammers, 8 racers, 40 lines
#   tests/bench/web/web_load.sh --watchers 100 --lines 20
#
#   BUILD_DIR=DIR  the Release tree (default build/abuse, shared with tests/bench/abuse.sh)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
build=${BUILD_DIR:-build/abuse}
say() { printf 'web_load.sh: %s\n' "$*" >&2; }

deploy/install-deps.sh
if [ ! -f "$build/build.ninja" ]; then
  say "configuring $build (Release, tests on)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTACKRACE_TESTS=ON -DSTACKRACE_SANITIZE=OFF \
    -DSTACKRACE_BENCH=OFF -DSTACKRACE_CLIENT=OFF >/dev/null
fi
say "building stackrace-webload and stackrace-server in $build"
cmake --build "$build" -j2 --target stackrace-webload stackrace-server
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true  # 500 watchers and 50 hammers are 550 sockets here and at the server
exec "$build/tests/web_pages/stackrace-webload" "$@"
