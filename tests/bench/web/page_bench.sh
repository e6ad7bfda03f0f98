#!/usr/bin/env bash
# The replay page's figures in headless Chromium (web/README.md, "Speed"): first paint of a replay page on loopback and
# the bytes it transfers, and the worst seek in a 10-minute replay. Uses the Release programs (./stackrace.sh build
# makes them, the site and the engine included).
#   tests/bench/web/page_bench.sh [BUILD_DIR]     (default build/release)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
build=${1:-build/release}
cmake --build "$build" -j2 --target stackrace-server stackrace-bot >/dev/null
exec node tests/bench/web/page_bench.mjs "$build/server/stackrace-server" "$build/bot/stackrace-bot"
