#!/usr/bin/env bash
# The engine is integer-only: floating point results may differ between compilers, flags and machines, and every
# client, the server and the replay verifier must compute bit-identical games. Fails, listing file:line, when a
# `float` or `double` appears in code (not in comments) of common/engine/*.h or *.cpp.
# usage: check_no_float.sh [DIR]   (default: common/engine beside this script)
set -euo pipefail

dir="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/common/engine}"
shopt -s nullglob
files=("$dir"/*.h "$dir"/*.cpp)
if [ ${#files[@]} -eq 0 ]; then
  echo "check_no_float: no *.h or *.cpp files in $dir" >&2
  exit 2
fi

# awk blanks out comments and the contents of string and character literals (a block comment may span lines), then
# looks for the words float and double in what is left. Raw string literals are not understood (the engine has none).
hits="$(awk '
  FNR == 1 { in_block = 0 }
  {
    line = $0; code = ""; n = length(line); i = 1; quote = ""
    while (i <= n) {
      c = substr(line, i, 1); two = substr(line, i, 2)
      if (in_block) {
        if (two == "*/") { in_block = 0; i += 2; code = code "  " } else { i++; code = code " " }
      } else if (quote != "") {
        if (c == "\\") { i += 2; code = code "  " }
        else if (c == quote) { quote = ""; i++; code = code c }
        else { i++; code = code " " }
      } else if (two == "//") {
        break
      } else if (two == "/*") {
        in_block = 1; i += 2; code = code "  "
      } else if (c == "\"" || c == "\047") {
        quote = c; i++; code = code c
      } else {
        code = code c; i++
      }
    }
    if (code ~ /(^|[^A-Za-z0-9_])(float|double)([^A-Za-z0-9_]|$)/) printf "%s:%d: %s\n", FILENAME, FNR, line
  }
' "${files[@]}")"

if [ -n "$hits" ]; then
  echo "check_no_float: floating point in the engine (common/engine must use integers only):" >&2
  printf '%s\n' "$hits" >&2
  exit 1
fi
echo "check_no_float: no float or double in ${#files[@]} files of $dir"
