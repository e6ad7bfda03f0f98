#!/usr/bin/env bash
# `stackrace LINK` in a real window under Xvfb: a plain HTTP server on loopback (python3's http.server) serves a golden
# replay as games/<id>.srr, the way a stackrace-server's web pages do; the game given that game's web link downloads
# it and opens it in its viewer (the log says it verified), and Esc (the viewer's Back) quits with status 0. A link to
# a game the server does not have is said in words, and the game stays up on its main menu.
#
# usage: web_link_test.sh STACKRACE REPLAY WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; replay="$2"; work="$3"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
mkdir -p "$work/site/games"
cp "$replay" "$work/site/games/00000000000000ff.srr"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
python3 -u -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" >"$work/http.log" 2>&1 &
http=$!
pid=""
trap 'kill $http ${pid:-} 2>/dev/null || true' EXIT
wait_for "$work/http.log" "Serving HTTP" 30

# The game started on LINK, its output in LOG, which expect (test_env.sh) then reads from its start.
open_link() {
  log="$2"
  mark=0
  "$stackrace" --config-dir "$work/config" --data-dir "$work/data" "$1" >"$log" 2>&1 &
  pid=$!
}

link="http://127.0.0.1:$port/games/00000000000000ff"
open_link "$link" "$work/stackrace.log"
expect "viewing $link: verified 3 racers" 60
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid"
sleep 1
keys Escape
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || { echo "FAIL: the game quit with status $status"; tail -n 30 "$log"; exit 1; }
echo "ok: Esc in the viewer quits"

missing="http://127.0.0.1:$port/games/00000000000000fe"
open_link "$missing" "$work/missing.log"
expect "cannot download $missing.srr: 127.0.0.1:$port answered 404 File not found \(the server has no such game\)" 60
expect "screen: main" 30
kill "$pid"
wait "$pid" || true
echo "PASS"
