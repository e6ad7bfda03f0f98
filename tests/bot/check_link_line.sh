#!/usr/bin/env bash
# Fails, naming what it found, when a program's link line holds a library it must not link: stackrace-bot is the
# headless player, so no window (GLFW, GL, glad, Dear ImGui), no sound (OpenAL) and nothing of the game (client/'s
# sr_client_* libraries). Reads the link command CMake generated: Ninja's (`ninja -t commands`, whose last line links
# the program) or the Makefile generator's link.txt; then the program's dynamic libraries (ldd).
# usage: check_link_line.sh BUILD_DIR PROGRAM_FILE MAKE_PROGRAM
set -euo pipefail

build="$1"
program="$2"
make_program="${3:-ninja}"
relative="${program#"$build"/}"
name="$(basename "$program")"

if [ -f "$build/build.ninja" ]; then
  line="$("$make_program" -C "$build" -t commands "$relative" | tail -n 1)"
else
  line="$(cat "$build/$(dirname "$relative")/CMakeFiles/$name.dir/link.txt")"
fi
case "$line" in
  *"-o $relative"* | *"-o $name"*) ;;
  *) echo "check_link_line: no link command for $relative found in $build (got: ${line:0:200})" >&2; exit 2 ;;
esac

# One word a line; the libraries are paths (client/settings/libsr_client_settings.a, .../libglfw.so.3.3) or -lNAME.
forbidden='(libsr_client_[a-z_]*\.a|-lsr_client_|libglfw|-lglfw|libopenal|-lopenal|libGL\.|libGLX|libOpenGL|-lGL$|libsr_glad|imgui)'
if hits="$(tr ' ' '\n' <<<"$line" | grep -E "$forbidden" | sort -u)"; then
  echo "check_link_line: $name links what a headless program must not:" >&2
  printf '  %s\n' $hits >&2
  exit 1
fi
if [ -x "$program" ] && dynamic="$(ldd "$program" 2>/dev/null)"; then
  if hits="$(grep -E '(libglfw|libopenal|libGL\.|libGLX|libOpenGL)' <<<"$dynamic")"; then
    echo "check_link_line: $name loads what a headless program must not:" >&2
    printf '%s\n' "$hits" >&2
    exit 1
  fi
fi
echo "check_link_line: $name links no window, sound or client library ($(tr ' ' '\n' <<<"$line" | grep -cE '\.(a|so)') libraries)"
