#!/usr/bin/env bash
# LayerOrder: the libraries of net/ and client/ link only downward in their documented order, and the folder maps
# agree with it. The order is the list in net/CMakeLists.txt's and client/CMakeLists.txt's opening comments (lowest
# first; all of net/ is below all of client/). For each listed folder, every library its CMakeLists.txt defines may
# link the libraries of its own folder and of folders listed below it, never one listed above. Every client/ folder
# with a CMakeLists.txt must be listed, and the folder maps in README.md, docs/ARCHITECTURE.md and client/README.md
# must list the client's folders in the same order.
# usage: check_layer_order.sh ROOT [--order "net/transport net/identity net client/input ..."]
#   --order checks the links against another order (no folder-map checks): the test that the check can fail uses it.
set -euo pipefail

root="$1"
shift
override=""
if [ "${1:-}" = "--order" ]; then override="$2"; fi

fail=0
problem() {
  echo "check_layer_order: $*" >&2
  fail=1
}

# The names a CMakeLists.txt comment lists as layers: lines "#   NAME  what it is" after the line saying
# "lowest first". NAME is a subfolder of DIR, or DIR's own library (net/'s sr_net).
listed() {
  local dir="$1" name
  sed -n '/lowest/,/^[^#]/p' "$root/$dir/CMakeLists.txt" | sed -nE 's/^#   ([a-z_]+)  .*/\1/p' |
    while read -r name; do
      if [ -d "$root/$dir/$name" ]; then echo "$dir/$name"; else echo "$dir"; fi
    done
}

if [ -n "$override" ]; then
  read -r -a layers <<<"$override"
else
  mapfile -t net_layers < <(listed net)
  mapfile -t client_layers < <(listed client)
  layers=("${net_layers[@]}" "${client_layers[@]}")
fi
[ "${#layers[@]}" -ge 4 ] || { echo "check_layer_order: no layer list found (got: ${layers[*]:-nothing})" >&2; exit 2; }

# Which layer defines each library.
declare -A layer_of index_of
for i in "${!layers[@]}"; do
  dir="${layers[$i]}"
  index_of[$dir]=$i
  file="$root/$dir/CMakeLists.txt"
  [ -f "$file" ] || { problem "$dir is listed as a layer but has no CMakeLists.txt"; continue; }
  for lib in $(sed -nE 's/^[[:space:]]*add_(library|executable)\(([A-Za-z0-9_-]+).*/\2/p' "$file"); do
    layer_of[$lib]=$dir
  done
done

# Every library a layer's CMakeLists.txt links (target_link_libraries over several lines), as "TARGET LIB" lines.
links() {
  awk '
    /target_link_libraries\(/ { on = 1; text = "" }
    on { text = text " " $0; if (index($0, ")")) { on = 0; process(text) } }
    function process(t,    n, w, i, target) {
      sub(/.*target_link_libraries\(/, "", t); sub(/\).*/, "", t)
      n = split(t, w, /[[:space:]]+/); target = ""
      for (i = 1; i <= n; ++i) {
        if (w[i] == "" || w[i] ~ /^(PUBLIC|PRIVATE|INTERFACE)$/) continue
        if (target == "") { target = w[i]; continue }
        print target, w[i]
      }
    }' "$1"
}

checked=0
for dir in "${layers[@]}"; do
  file="$root/$dir/CMakeLists.txt"
  [ -f "$file" ] || continue
  while read -r target lib; do
    used="${layer_of[$lib]:-}"
    [ -n "$used" ] || continue  # outside net/ and client/ (common/, server/, a system library)
    checked=$((checked + 1))
    if [ "${index_of[$used]}" -gt "${index_of[$dir]}" ]; then
      problem "$dir: $target links $lib ($used), which the documented order puts above $dir"
    fi
  done < <(links "$file")
done

if [ -z "$override" ]; then
  client_names=()
  for dir in "${client_layers[@]}"; do client_names+=("${dir#client/}"); done
  want="${client_names[*]}"
  for folder in "$root"/client/*/; do
    name="$(basename "$folder")"
    if [ -f "$folder/CMakeLists.txt" ] && [[ " $want " != *" $name "* ]]; then
      problem "client/$name has a CMakeLists.txt but client/CMakeLists.txt does not list it as a layer"
    fi
  done
  # README.md: "| `client/` | ... one library per folder: a, b, c |"
  got="$(sed -nE 's/^\| `client\/` .*one library per folder: ([a-z, ]+) \|.*/\1/p' "$root/README.md" | tr -d ',')"
  [ "$got" = "$want" ] || problem "README.md lists the client's folders as '$got', client/CMakeLists.txt as '$want'"
  # docs/ARCHITECTURE.md: the paragraph "The client's folders, lowest first: `input` (...), `audio` ..." up to "Only".
  got="$(sed -n "/^The client's folders, lowest first:/,/Only/p" "$root/docs/ARCHITECTURE.md" | tr '\n' ' ' |
    sed 's/Only.*//; s/([^)]*)//g' | grep -oE '`[a-z]+`' | tr -d '`' | tr '\n' ' ' | sed 's/ $//')"
  [ "$got" = "$want" ] || problem "docs/ARCHITECTURE.md lists the client's folders as '$got', client/CMakeLists.txt as '$want'"
  # client/README.md: the table under "How it is built", one "| `name/` |" row a folder.
  got="$(sed -n '/^## How it is built/,/^## [^H]/p' "$root/client/README.md" | sed -nE 's/^\| `([a-z]+)\/` \|.*/\1/p' |
    tr '\n' ' ' | sed 's/ $//')"
  [ "$got" = "$want" ] || problem "client/README.md lists the client's folders as '$got', client/CMakeLists.txt as '$want'"
fi

[ "$fail" -eq 0 ] || exit 1
echo "check_layer_order: ${#layers[@]} layers (${layers[*]}), $checked links between them, all downward"
