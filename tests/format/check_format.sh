#!/usr/bin/env bash
# Fails, listing the files, when clang-format (version 14, as Debian 12 ships it, with the root .clang-format) would
# change any git-tracked *.h or *.cpp file. `./stackrace.sh test` runs it before it builds anything.
# usage: tests/format/check_format.sh          report (exit status 1 when a file differs)
#        tests/format/check_format.sh --list   only the differing files, one a line (clang-format -i $(... --list))
set -euo pipefail

list_only=0
if [ "${1:-}" = "--list" ]; then list_only=1; fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

if command -v clang-format-14 >/dev/null 2>&1; then
  cf=clang-format-14
elif command -v clang-format >/dev/null 2>&1; then
  cf=clang-format
else
  echo "check_format: clang-format is not installed (deploy/install-deps.sh installs it: ./stackrace.sh deps)" >&2
  exit 2
fi
case "$("$cf" --version)" in
  *"version 14."*) ;;
  *) echo "check_format: warning: $cf is not version 14 (CI's); its formatting may differ: $("$cf" --version)" >&2 ;;
esac

files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  while IFS= read -r -d '' f; do
    if [ -f "$f" ]; then files+=("$f"); fi  # skips files deleted in the work tree but still in the index
  done < <(git ls-files -z -- '*.h' '*.cpp')
else
  # A copy without git (an unpacked archive): every *.h and *.cpp outside the build tree.
  while IFS= read -r -d '' f; do files+=("${f#./}"); done < <(find . -path ./build -prune -o -path ./.git -prune -o \
    \( -name '*.h' -o -name '*.cpp' \) -type f -print0 | sort -z)
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "check_format: no tracked *.h or *.cpp files" >&2
  exit 2
fi

# One clang-format run over every file (a process per file takes ten times longer); each file that would change is
# reported once (--ferror-limit=1) as "FILE:LINE:COL: error: code should be clang-formatted [-Wclang-format-violations]".
rc=0
out="$(printf '%s\0' "${files[@]}" | xargs -0 "$cf" --dry-run -Werror --ferror-limit=1 --style=file 2>&1)" || rc=$?
bad=()
while IFS= read -r f; do
  if [ -n "$f" ]; then bad+=("$f"); fi
done < <(printf '%s\n' "$out" |
  sed -n 's/^\(.*\):[0-9][0-9]*:[0-9][0-9]*: error: code should be clang-formatted \[-Wclang-format-violations\]$/\1/p' |
  sort -u)

if [ "$list_only" = 1 ]; then
  if [ ${#bad[@]} -gt 0 ]; then printf '%s\n' "${bad[@]}"; fi
elif [ ${#bad[@]} -gt 0 ]; then
  {
    echo "check_format: ${#bad[@]} of ${#files[@]} tracked *.h/*.cpp files are not formatted as $cf and .clang-format want:"
    printf '  %s\n' "${bad[@]}"
    echo "check_format: fix a file with: $cf -i FILE"
    echo "check_format: fix all of them: $cf -i \$(tests/format/check_format.sh --list)"
  } >&2
fi
if [ ${#bad[@]} -gt 0 ]; then exit 1; fi
if [ "$rc" -ne 0 ]; then
  printf '%s\n' "$out" >&2
  echo "check_format: $cf failed (exit status $rc)" >&2
  exit 2
fi
if [ "$list_only" = 0 ]; then echo "check_format: all ${#files[@]} tracked *.h/*.cpp files are formatted ($cf)"; fi
