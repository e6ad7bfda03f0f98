#!/usr/bin/env bash
# Installs every Debian package that stackrace's build, tests and game need.
# Idempotent and non-interactive: does nothing when everything is present; uses sudo when not root.
# `install-deps.sh --list` prints the packages, one a line, and installs nothing (the install-list check,
# tests/deploy/check_install_list.py, reads it).
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git clang libclang-rt-14-dev
  # llvm: llvm-symbolizer, so clang sanitizer reports show file:line (clang only recommends it)
  llvm clang-format
  # libraries
  libcereal-dev rapidjson-dev libcli11-dev libspdlog-dev libfmt-dev libsqlite3-dev libsodium-dev libenet-dev libcpp-httplib-dev
  # the replay store in PostgreSQL (replays/README.md): libpq to build; the server (postgresql-15, and
  # postgresql-common's pg_virtualenv) for the tests, which start a throwaway cluster of their own
  libpq-dev postgresql
  libglfw3-dev libimgui-dev python3-glad libgl-dev fonts-dejavu-core
  # OpenGL::GLX: CMake's FindOpenGL makes it only when libOpenGL.so (the GL vendor-neutral dispatch) is found too
  libopengl-dev
  # sound: OpenAL Soft (libopenal1 comes with -dev; libopenal-data holds its HRTF tables)
  libopenal-dev libopenal1 libopenal-data
  # the client's render thread opens its own X connection and GLX context (client/platform/render_context.h)
  libx11-dev libglx-dev
  # tests and benchmarks
  googletest libgtest-dev libgmock-dev libbenchmark-dev
  # deployment tests: the Kubernetes manifests are checked with python3-yaml
  python3 python3-yaml
  # running the client without a GPU (tests drive it under Xvfb)
  xvfb xauth xdotool x11-apps libgl1-mesa-dri
  # tests/bench/client/key_timing.py sends keys through XTest (ctypes)
  libxtst6
  # ./stackrace.sh busy: the test suites beside a CPU hog
  stress-ng
  # the engine as WebAssembly (web/README.md): emscripten 3.1.6 with its prebuilt system libraries (it brings clang-14,
  # lld-14, llvm-14, binaryen and node-acorn), and node, which runs emscripten's tools and the tests of web/
  emscripten nodejs node-acorn
  # the web pages' tests in a real browser (tests/web_pages): headless Chromium, driven by node over the DevTools
  # protocol
  chromium
)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
  if [ "$status" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
