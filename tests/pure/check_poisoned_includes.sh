#!/usr/bin/env bash
# Fails, listing file:line, when a source of a pure target (common/) names a header of the poison directory
# (cmake/poison: <cmath>, <unordered_map>, <thread>, <GLFW/...>, ...). The poison headers make such an include a
# compile error, but <unordered_map> and <unordered_set> must let libstdc++'s <functional> and Cereal through, so after
# those a direct include would compile: this check catches it whatever the include order.
# usage: check_poisoned_includes.sh [REPO_ROOT]
set -euo pipefail

root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
poison="$root/cmake/poison"
[ -d "$poison" ] || { echo "check_poisoned_includes: no $poison" >&2; exit 2; }

alternatives=()
for entry in "$poison"/*; do
  name="$(basename "$entry")"
  name="${name//./\\.}"
  if [ -d "$entry" ]; then alternatives+=("$name/"); else alternatives+=("$name[>\"]"); fi
done
pattern="^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($(IFS='|'; echo "${alternatives[*]}"))"

if hits="$(grep -rnE --include='*.h' --include='*.cpp' "$pattern" "$root/common")"; then
  echo "check_poisoned_includes: pure targets (common/) include headers that cmake/poison refuses:" >&2
  printf '%s\n' "$hits" >&2
  exit 1
fi
echo "check_poisoned_includes: no source under $root/common includes any of: $(ls "$poison" | tr '\n' ' ')"
