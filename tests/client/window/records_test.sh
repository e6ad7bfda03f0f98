#!/usr/bin/env bash
# The Records screen in a real window under Xvfb, with keys alone, against a fake records hub (fake_records_hub.py:
# python3's http.server answering fixed JSON of common/protocol/RECORDS.md, section 5):
#   1. `stackrace --records` with no hub set says how to add one; Esc goes back to the main menu.
#   2. With two hubs (the fake one and a port where nothing listens): the boards, the first board's trusted page with
#      the player's own entry among them, Page Down to the next page, the other list, another board by its selector,
#      a board whose page is not the API's JSON (said in a sentence), and the second hub (cannot be reached, said).
#      Every URL the game asked is checked in the hub's request log; screenshots are kept (records-*.png).
#   3. A hosted marathon room raced alone to a top-out (which counts on marathon-15v) asks the hub where the run would
#      place, and the results say "#3 of 23".
#
# usage: records_test.sh STACKRACE WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; work="$2"
here="$(dirname "${BASH_SOURCE[0]}")"

source "$here/test_env.sh"
fresh_work_dir "$work"
pid=""; hub=""
trap 'kill ${pid:-} ${hub:-} 2>/dev/null || true' EXIT

start_game() {  # start_game LOG ARGS...: the game on this test's config and data, its output in LOG
  log="$1"; shift
  mark=0
  "$stackrace" --config-dir "$work/config" --data-dir "$work/data" "$@" >"$log" 2>&1 &
  pid=$!
  local wid
  wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
  xdotool windowfocus --sync "$wid" || true
}

shot() {  # shot NAME: F12, and the screenshot kept as $work/NAME.png
  xdotool key F12
  expect "screenshot written to "
  cp "$(sed -n "${mark}p" "$log" | sed 's/.*screenshot written to //')" "$work/$1.png"
}

quit_game() {  # from the main menu: Esc moves to Quit, Enter quits
  keys Escape Return
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  local rc=0
  wait "$pid" || rc=$?
  [ "$rc" -eq 0 ] || { echo "FAIL: the game exited with $rc"; tail -n 30 "$log"; exit 1; }
  pid=""
}

# 1. No hub.
start_game "$work/nohub.log" --records
expect_both "records: 0 hubs" "screen: records"
own="$(grep -o -E 'player key [0-9a-f]{8}' "$log" | head -n1 | cut -d' ' -f3)"
[ -n "$own" ] || { echo "FAIL: the game logged no player key"; cat "$log"; exit 1; }
shot records-no-hub
keys Escape
expect "screen: main menu"
quit_game
echo "ok: no hub, and the player's key is $own"

# 2. The fake hub, and a hub where nothing listens.
python3 -u "$here/fake_records_hub.py" "$work/hub.port" "$work/hub.requests" "$own" >"$work/hub.log" 2>&1 &
hub=$!
for _ in $(seq 1 300); do [ -s "$work/hub.port" ] && break; sleep 0.1; done
[ -s "$work/hub.port" ] || { echo "FAIL: the fake hub did not start"; cat "$work/hub.log"; exit 1; }
port="$(cat "$work/hub.port")"
dead="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
hub_url="http://127.0.0.1:$port"

start_game "$work/records.log" --records --directory "$hub_url" --directory "http://127.0.0.1:$dead"
expect "records: 2 hubs, asking $hub_url" 60
expect "records: 3 boards" 30  # its answer may come before the screen's first frame ends (and says its name)
expect "records: sprint-40l trusted: 1-20 of 23, 1 yours" 30
grep -q "screen: records" "$log" || { echo "FAIL: the records screen was not shown"; cat "$log"; exit 1; }
shot records-sprint
keys Next                                 # Page Down
expect "records: sprint-40l trusted: 21-23 of 23$"
keys Prior                                # Page Up
expect "records: sprint-40l trusted: 1-20 of 23, 1 yours"
keys Down Right space                     # the board selector has the keys: Down to Trusted, Right to Other
expect "records: sprint-40l other: 1-2 of 2$"
shot records-other
keys Left space                           # back to Trusted
expect "records: sprint-40l trusted: 1-20 of 23, 1 yours"
keys Up Return Down Return                # the board selector: the second board
expect "records: ultra-120s.3fa2c9d1 trusted: 1-1 of 1$"
shot records-ultra
keys Return Down Return                   # the third board: its page is HTML
expect "records: 127.0.0.1:$port did not answer with the records API's JSON \(the answer is not JSON \(at byte 0\)\)\."
keys Up Return Down Return                # the hub selector: the second hub
expect "records: asking http://127.0.0.1:$dead"
expect "records: 127.0.0.1:$dead cannot be reached \(cannot connect to 127.0.0.1:$dead: Connection refused\)\." 30
shot records-unreachable
keys Escape
expect "screen: main menu"
quit_game

want="/api/records
/api/records/sprint-40l?list=trusted&offset=0&limit=20
/api/records/sprint-40l?list=trusted&offset=20&limit=20
/api/records/sprint-40l?list=trusted&offset=0&limit=20
/api/records/sprint-40l?list=other&offset=0&limit=20
/api/records/sprint-40l?list=trusted&offset=0&limit=20
/api/records/ultra-120s.3fa2c9d1?list=trusted&offset=0&limit=20
/api/records/master-100l?list=trusted&offset=0&limit=20"
got="$(cat "$work/hub.requests")"
if [ "$got" != "$want" ]; then
  echo "FAIL: the hub was asked"; echo "$got"; echo "instead of"; echo "$want"; exit 1
fi
echo "ok: the hub was asked exactly what the keys chose"

# 3. Where a race's result would place: a marathon (a top-out counts there) raced alone in a hosted room.
: >"$work/hub.requests"
start_game "$work/race.log" --host-port 0 --create-room marathon --room-name race --directory "$hub_url"
expect "screen: room" 60
keys Return                               # the focus starts on Ready; alone and ready, the race starts
expect "race 1 countdown"
sleep 3.2                                 # the countdown
end=$((SECONDS + 90))
until grep -q "race results: race 1" "$log"; do  # hard drops until the game tops out
  [ $SECONDS -lt $end ] || { echo "FAIL: no results"; tail -n 20 "$log"; exit 1; }
  xdotool key space
  sleep 0.12
done
expect "race results: race 1"
expect "records: asking $hub_url/api/records/marathon-15v/place\?score=[0-9]+$"
expect "records: On the records of 127.0.0.1:$port this run would place #3 of 23 \(marathon-15v\)$" 30
sleep 2  # the results' buttons appear 1.5 s after the results
shot records-race-results
grep -q -E "^/api/records/marathon-15v/place\?score=[0-9]+$" "$work/hub.requests" ||
  { echo "FAIL: the hub was not asked where the run would place"; cat "$work/hub.requests"; exit 1; }
kill "$pid"; wait "$pid" || true; pid=""
echo "ok: the race results say where the run would place"
echo "PASS"
