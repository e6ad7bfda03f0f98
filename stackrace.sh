#!/usr/bin/env bash
# stackrace.sh: the one entry point. Every subcommand installs missing Debian packages (deploy/install-deps.sh),
# then builds whatever is stale, then acts. Run `./stackrace.sh help` for the list.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"

JOBS=2  # the build machines have 2 cores; ASan builds are memory hungry
RELEASE_DIR="build/release"

say() { printf 'stackrace: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

usage() {
  cat <<'EOF'
usage: ./stackrace.sh <command> [args...]

  play [args]     install, build (Release) and start the game client; args go to the client
  test [args]     install, check the formatting (tests/format/check_format.sh), build the sanitizer test
                  configuration (build/test-<compiler>) and run every test with ctest, then the fuzz smoke
                  run; args go to ctest (e.g. -R Srs).
                  Honours $CXX: CXX=clang++ ./stackrace.sh test (with clang++ the WebAssembly engine and
                  its node tests are left out: the g++ pass runs them)
  busy [args]     as test, but only the server, network and client suites, with every core kept busy by
                  stress-ng (--cpu 4): they must hold on a starved machine. args go to ctest
  build           install and build the Release configuration in build/release (with the WebAssembly engine,
                  build/release/web/stackrace_engine.js and .wasm)
  server [args]   build Release and run the dedicated server; args go to stackrace-server
  bench           build Release with benchmarks and run every *_bench program
  deps            install the Debian packages the build needs, nothing else
  fresh [args]    the README's two commands in a clean Debian 12 root made with debootstrap (needs root, about
                  an hour): proves the install list complete; args go to tests/fresh/fresh_debian.sh (--help)
  help            this text

Every command first installs missing packages (deploy/install-deps.sh, uses sudo when not root)
and rebuilds only what is stale.
EOF
}

install_deps() {
  "$ROOT/deploy/install-deps.sh"
}

# configure DIR ARGS...: run CMake when DIR has never been configured, ARGS changed, or a CMakeLists.txt appeared or
# went away (the top level adds subdirectories only if they exist, which Ninja's own re-run check cannot see).
# Edits to existing CMakeLists.txt files are picked up by the build itself (Ninja re-runs CMake).
configure() {
  local dir="$1"; shift
  local stamp="$dir/.stackrace-configure-args"
  local want
  want="$(printf '%s\n' "$@"; find . -path ./build -prune -o -path ./.git -prune -o -name CMakeLists.txt -print | sort)"
  if [ -f "$dir/build.ninja" ] && [ -f "$dir/CMakeCache.txt" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    return 0
  fi
  say "configuring $dir"
  mkdir -p "$dir"
  rm -f "$stamp"
  if ! cmake -S . -B "$dir" -G Ninja "$@" >"$dir/configure.log" 2>&1; then
    cat "$dir/configure.log" >&2
    die "CMake configure of $dir failed (log: $dir/configure.log)"
  fi
  printf '%s\n' "$want" >"$stamp"
}

build_dir() {
  local dir="$1"
  say "building $dir"
  cmake --build "$dir" -j"$JOBS" || die "build of $dir failed"
}

# Release build: game, server, tools. Benchmarks only when asked for (bench passes ON).
build_release() {
  local bench="${1:-OFF}"
  configure "$RELEASE_DIR" -DCMAKE_BUILD_TYPE=Release -DSTACKRACE_TESTS=OFF -DSTACKRACE_BENCH="$bench"
  build_dir "$RELEASE_DIR"
}

cmd_deps() {
  install_deps
  say "dependencies are installed"
}

cmd_build() {
  install_deps
  build_release OFF
  say "Release binaries are in $RELEASE_DIR:"
  local found=0 f
  for f in "$RELEASE_DIR"/server/stackrace-server "$RELEASE_DIR"/client/stackrace "$RELEASE_DIR"/bot/stackrace-bot \
           "$RELEASE_DIR"/replays/stackrace-replay; do
    if [ -x "$f" ]; then printf '  %s\n' "$f"; found=1; fi
  done
  if [ -f "$RELEASE_DIR/web/stackrace_engine.js" ]; then
    printf '  %s and .wasm (the engine for web pages, web/README.md)\n' "$RELEASE_DIR/web/stackrace_engine.js"
  fi
  if [ "$found" -eq 0 ]; then
    say "(no programs yet: only the libraries are built so far)"
  fi
}

# Picks the C compiler matching $CXX: clang++ -> clang, g++ -> gcc (version suffixes kept).
matching_cc() {
  local cxx="$1" dir base
  dir="$(dirname "$cxx")"
  base="$(basename "$cxx")"
  case "$base" in
    *clang++*) base="${base/clang++/clang}" ;;
    *g++*) base="${base/g++/gcc}" ;;
    c++) base="cc" ;;
    *) return 1 ;;
  esac
  if [ "$dir" = "." ] && [[ "$cxx" != ./* ]]; then printf '%s\n' "$base"; else printf '%s/%s\n' "$dir" "$base"; fi
}

# Sets up the compilers and sanitizer options of the test configuration and builds it in $TEST_DIR.
TEST_DIR=""
prepare_test_build() {
  export CXX="${CXX:-g++}"
  command -v "$CXX" >/dev/null 2>&1 || die "C++ compiler '$CXX' not found"
  if [ -z "${CC:-}" ]; then
    CC="$(matching_cc "$CXX")" || die "cannot tell which C compiler goes with CXX=$CXX; set CC as well"
  fi
  export CC
  command -v "$CC" >/dev/null 2>&1 || die "C compiler '$CC' not found"

  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

  # The WebAssembly engine and its tests under node (web/README.md) check the emscripten build, which the host
  # compiler does not change: the g++ pass builds and runs them, the clang++ pass (CI's second) leaves them out.
  local wasm=ON
  case "$(basename "$CXX")" in *clang*) wasm=OFF ;; esac

  # Debug information: line tables only (-g1), which is what the sanitizers' reports need (function, file and line
  # of every frame); full -g made the objects a third larger and each compiler's build about a fifth slower. For a
  # debugger with local variables, configure a build directory of your own with plain Debug.
  TEST_DIR="build/test-$(basename "$CXX")"
  configure "$TEST_DIR" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1 \
    -DSTACKRACE_SANITIZE=ON -DSTACKRACE_BENCH=OFF -DSTACKRACE_TESTS=ON -DSTACKRACE_WASM="$wasm"
  build_dir "$TEST_DIR"
}

# Tests whose result does not depend on which compiler built the tree beyond what the unit suites already check:
# whole programs driven end to end (the game's window under Xvfb, the network matrix, the kill and abuse tests,
# stackrace-bot racing a server with its own bots and with an external one, the sound through OpenAL's wave writer),
# the packaging checks, the WebAssembly engine under node and the web pages in headless Chromium (WebBrowser.*,
# tests/web_pages). CI's second pass (CXX=clang++ STACKRACE_SECOND_PASS=1, .ci/run) leaves them out to keep the
# whole run well under an hour; the first pass, the README's own `./stackrace.sh test`, runs them all.
ONE_PASS_TESTS='^(ClientWindow\.|RecordsEndToEnd\.|NetMatrix\.Short|KillTest\.Short|Abuse\.Short|DockerfileTest\.|InstallList\.|WasmEngine\.|WebBrowser\.|StackraceBotOnline\.|ExternalRace\.|SoundDevice\.)'

cmd_test() {
  install_deps
  # Formatting first: it takes seconds, the build takes many minutes.
  say "checking the formatting (tests/format/check_format.sh)"
  tests/format/check_format.sh || die "FAILED: files are not clang-formatted (see above); nothing was built"
  prepare_test_build
  local dir="$TEST_DIR"

  local second=()
  if [ "${STACKRACE_SECOND_PASS:-0}" = 1 ]; then
    say "STACKRACE_SECOND_PASS=1: leaving out the one-pass tests ($ONE_PASS_TESTS) and the fuzz run"
    second=(-E "$ONE_PASS_TESTS")
  fi
  say "running tests in $dir (CXX=$CXX)"
  local rc=0
  ctest --test-dir "$dir" --output-on-failure -j"$JOBS" "${second[@]}" "$@" || rc=$?

  if [ "${STACKRACE_SECOND_PASS:-0}" = 1 ]; then
    :
  elif [ $# -gt 0 ]; then
    say "ctest arguments given: skipping the fuzz run"
  elif [ "${STACKRACE_NO_FUZZ:-0}" = 1 ]; then
    say "STACKRACE_NO_FUZZ=1: skipping the fuzz run (it builds with clang whatever CXX is)"
  elif [ -x tests/fuzz/run.sh ]; then
    say "running fuzz targets (tests/fuzz/run.sh)"
    tests/fuzz/run.sh || { say "fuzzing failed"; rc=1; }
  fi

  if [ "$rc" -ne 0 ]; then
    die "FAILED (CXX=$CXX)"
  fi
  say "all tests passed (CXX=$CXX)"
}

# The suites that talk over the network or time things, beside a CPU hog on every core: where a test needs time it
# must drive a fake clock, and where it needs real time its limits must hold for a starved process.
cmd_busy() {
  install_deps
  prepare_test_build
  local dir="$TEST_DIR"
  say "running the server, network and client suites in $dir beside stress-ng --cpu 4"
  stress-ng --cpu 4 --timeout 3h --quiet &
  BUSY_HOG=$!
  trap 'kill "${BUSY_HOG:-}" 2>/dev/null || true' EXIT
  local rc=0
  ctest --test-dir "$dir" --output-on-failure -j"$JOBS" \
    -L '^(server_tests|server_net_tests|bot_online_cli_tests|client_tests|bot_tests|bot_app_tests|sync_tests)$|netsim' \
    "$@" || rc=$?
  kill "$BUSY_HOG" 2>/dev/null || true
  [ "$rc" -eq 0 ] || die "FAILED beside a CPU hog (CXX=$CXX)"
  say "all the server, network and client suites passed beside a CPU hog (CXX=$CXX)"
}

cmd_play() {
  install_deps
  build_release OFF
  local client="$RELEASE_DIR/client/stackrace"
  if [ ! -x "$client" ]; then
    say "the game client (stackrace) is not built yet; run ./stackrace.sh server or the bot"
    exit 2
  fi
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    say "there is no display (\$DISPLAY and \$WAYLAND_DISPLAY are both empty), so the game window cannot open."
    say "without a display, run a server with ./stackrace.sh server, or let the headless bot play."
    exit 2
  fi
  exec "$client" "$@"
}

cmd_server() {
  install_deps
  build_release OFF
  local server="$RELEASE_DIR/server/stackrace-server"
  if [ ! -x "$server" ]; then
    say "the dedicated server (stackrace-server) is not built yet"
    exit 2
  fi
  exec "$server" "$@"
}

cmd_bench() {
  install_deps
  build_release ON
  local benches=() f
  if [ -d "$RELEASE_DIR/tests/bench" ]; then
    while IFS= read -r f; do benches+=("$f"); done \
      < <(find "$RELEASE_DIR/tests/bench" -type f -name '*_bench' -perm -u+x | sort)
  fi
  if [ ${#benches[@]} -eq 0 ]; then
    die "no benchmark programs found under $RELEASE_DIR/tests/bench"
  fi
  local rc=0
  for f in "${benches[@]}"; do
    say "running $f"
    "$f" || { say "$f failed"; rc=1; }
  done
  return "$rc"
}

main() {
  local cmd="${1:-help}"
  [ $# -gt 0 ] && shift
  case "$cmd" in
    deps) cmd_deps "$@" ;;
    build) cmd_build "$@" ;;
    test) cmd_test "$@" ;;
    busy) cmd_busy "$@" ;;
    play) cmd_play "$@" ;;
    server) cmd_server "$@" ;;
    bench) cmd_bench "$@" ;;
    fresh) exec "$ROOT/tests/fresh/fresh_debian.sh" "$@" ;;
    help | -h | --help) usage ;;
    *)
      usage >&2
      die "unknown command: $cmd"
      ;;
  esac
}

main "$@"
