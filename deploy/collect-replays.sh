#!/usr/bin/env bash
# collect-replays.sh: gathers the replay stores of many stackrace servers into one store, so a community can list and
# verify every game it played in one place.
#
#   deploy/collect-replays.sh [--replay-tool PATH] DEST SOURCE...
#
# Each SOURCE is one server's replay store (its --data-dir, e.g. /data/<server-name>/ on a shared volume). Every
# SOURCE/*.srr not yet in DEST is copied there (atomically: a temporary name, then a rename); then
# `stackrace-replay reindex --store DEST` rebuilds DEST's index from all its files, decoding and verifying each.
# A replay's file name is a hash of its bytes, so the same game reaching DEST twice is stored once, and running the
# script again only copies what is new. A SOURCE that is DEST itself is skipped, so `DEST /data/*/` may include DEST.
# Servers write their replays atomically too, so collecting while they run is safe.
#
# stackrace-replay is found as --replay-tool, else $STACKRACE_REPLAY, else on the PATH, else in build/release.
# Exit status: 0 done; 1 a source could not be read, two different files had the same name, or reindex failed;
# 2 usage error.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

say() { printf 'collect-replays: %s\n' "$*" >&2; }
usage() {
  echo "usage: deploy/collect-replays.sh [--replay-tool PATH] DEST SOURCE...  (see the comment at its top)" >&2
  exit 2
}

tool="${STACKRACE_REPLAY:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --replay-tool) [ $# -ge 2 ] || usage; tool="$2"; shift 2 ;;
    -h | --help) usage ;;
    --) shift; break ;;
    -*) say "unknown option: $1"; usage ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || usage
dest="$1"
shift

if [ -z "$tool" ]; then
  if command -v stackrace-replay >/dev/null 2>&1; then
    tool="$(command -v stackrace-replay)"
  elif [ -x "$ROOT/build/release/replays/stackrace-replay" ]; then
    tool="$ROOT/build/release/replays/stackrace-replay"
  else
    say "stackrace-replay not found: install it, build it (./stackrace.sh build) or pass --replay-tool PATH"
    exit 1
  fi
fi

mkdir -p "$dest"
dest_real="$(realpath "$dest")"

# One collection at a time per destination.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$dest_real/.collect.lock"
  flock -n 9 || { say "another collection into $dest is running"; exit 1; }
fi

status=0
copied=0
present=0
stores=0
shopt -s nullglob
for source in "$@"; do
  if [ ! -d "$source" ]; then
    say "not a directory: $source"
    status=1
    continue
  fi
  [ "$(realpath "$source")" = "$dest_real" ] && continue
  stores=$((stores + 1))
  for file in "$source"/*.srr; do
    name="$(basename "$file")"
    target="$dest_real/$name"
    if [ -e "$target" ]; then
      if cmp -s "$file" "$target"; then
        present=$((present + 1))
      else
        say "$file differs from the collected $target of the same name; kept the collected one"
        status=1
      fi
      continue
    fi
    tmp="$dest_real/.$name.collect-$$"
    cp -- "$file" "$tmp"
    mv -f -- "$tmp" "$target"
    copied=$((copied + 1))
  done
done

say "copied $copied new replays from $stores stores ($present were already collected); reindexing $dest"
if ! "$tool" reindex --store "$dest_real"; then
  say "reindex of $dest failed"
  status=1
fi
exit "$status"
