#!/usr/bin/env bash
# Multiplayer without a mouse: the first start's name typed, then from the main menu keys alone host a server (on a port typed into the Port field),
# create a room, get ready, race (hard drops until the game tops out), close the results, leave the room, open and
# leave the server's replays, disconnect and go back to the main menu. Each step is followed in the game's log
# ("screen: ..."); the race's keys must reach the game, not the menus.
#
# usage: keyboard_multiplayer_test.sh STACKRACE REPLAY_TOOL WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; tool="$2"; work="$3"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
log="$work/stackrace.log"
"$stackrace" --config-dir "$work/config" --data-dir "$work/data" --screenshot "$work/shot.png" >"$log" 2>&1 &
pid=$!
trap 'kill -9 $pid 2>/dev/null || true' EXIT

mark=0  # expect (test_env.sh) reads the log from here
expect "first start: asking for a name"
expect "screen: main menu"
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
sleep 0.5
# The first start asks for a name over the main menu (a suggested one): another one typed, and Enter.
keys ctrl+a BackSpace
xdotool type --delay 120 "Ada Lovelace"
keys Return
expect "first start: playing as Ada Lovelace"
grep -q '"player_name": "Ada Lovelace"' "$work/config/settings.json" || { echo "FAIL: the name was not saved"; exit 1; }

keys Down Down Down Return                # Solo, Race the bot, Puzzles, [Multiplayer]
expect "screen: multiplayer menu"
# The focus starts on Connect; Down reaches the Port field. Enter edits it: select all, type 0 (any free port).
keys Down Return ctrl+a 0 Return
keys Right Right Right Return             # -, +, [Host a server and join it]
expect "hosting a server on port"
expect "screen: lobby"
keys Return                               # the focus starts on Create room when there are no rooms
expect "screen: room"
keys Return                               # the focus starts on Ready; alone and ready, the race starts
expect "race 1 countdown"
expect "screen: race"
sleep 3.2                                 # the countdown

# Hard drops until the game tops out: the race's keys go to the game, not to any menu.
end=$((SECONDS + 60))
until grep -q "race results" "$log"; do
  [ $SECONDS -lt $end ] || { echo "FAIL: no results"; tail -n 20 "$log"; exit 1; }
  xdotool key space
  sleep 0.12
done
expect "Your game is saved"
expect "screen: race results"
sleep 2                                   # the results take keys after a moment
keys Return                               # the focus starts on Back to the room
expect "screen: room"
keys Escape                               # Esc leaves the room
expect "screen: lobby"
# The lobby's focus is on Create room; Down reaches Replays on this server.
keys Down Return
expect "screen: replays"
keys Escape
expect "screen: lobby"
keys Escape                               # Esc in the lobby disconnects
expect "screen: multiplayer menu"
keys Escape                               # and on the multiplayer menu goes back
expect "screen: main menu"
kill -TERM $pid
rc=0; wait $pid || rc=$?
trap - EXIT
cat "$log"
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }
if grep -q "race 2 countdown" "$log"; then echo "FAIL: a key meant for the race started another one"; exit 1; fi

# The race's own game is kept and verifies; the hosted server kept the race too.
shopt -s nullglob
local_files=("$work/data/replays/"*.srr)
hosted=("$work/data/hosted/"*.srr)
[ "${#local_files[@]}" -eq 1 ] || { echo "expected one local replay, found ${#local_files[@]}"; exit 1; }
[ "${#hosted[@]}" -eq 1 ] || { echo "expected one hosted replay, found ${#hosted[@]}"; exit 1; }
"$tool" verify "${local_files[0]}" "${hosted[0]}"
echo "keyboard multiplayer test passed"
