#!/usr/bin/env bash
# The contest ladder from the game, with keys alone. A stackrace-server --contest (of 30-second games) runs; a
# stackrace-bot plays one ranked game as 'rocket' while the game connects, opens "Contest ladder" from the lobby, enters
# as a person (its player name, ranked), races and forfeits (Esc, leave the room: the ranked game stays spent), and is
# back on the ladder. When the bot's game is in, Refresh shows both entrants and Watch opens the bot's game in the
# replay viewer (verified), whose Back returns to the ladder. On the way, a damaged old secret file (from before player
# keys) is an error (and left alone) and entering as 'rocket' with the game's own key is refused in the server's words
# (the bot's key holds it). The server's leaderboard then lists rocket and player (1/10), and the game's player key is
# under its --config-dir, readable by its owner only.
#
# usage: contest_ladder_test.sh STACKRACE SERVER BOT WORK_DIR      (run by ctest inside xvfb-run)
set -euo pipefail
stackrace="$1"; server="$2"; bot="$3"; work="$4"

source "$(dirname "${BASH_SOURCE[0]}")/test_env.sh"
fresh_work_dir "$work"
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done' EXIT

"$server" --contest --contest-seconds 30 --port 0 --bind 127.0.0.1 --data-dir "$work/server" --name contest \
  >"$work/server.log" 2>&1 &
pids+=($!)
wait_for "$work/server.log" "listening on" 30
port="$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/server.log" | head -n1)"

# The bot's ranked game takes 30 s: it plays while the game does everything else.
"$bot" --server "127.0.0.1:$port" --ladder rocket --games 1 --pps 5 --secret-file "$work/rocket.secret" \
  >"$work/bot.log" 2>&1 &
botpid=$!
pids+=($botpid)

log="$work/stackrace.log"
"$stackrace" --connect "127.0.0.1:$port" --config-dir "$work/config" --data-dir "$work/data" \
  --screenshot "$work/ladder.png" >"$log" 2>&1 &
pid=$!
pids+=($pid)

mark=0  # expect (test_env.sh) reads the log from here
expect "screen: lobby"
wid="$(timeout 60 xdotool search --sync --onlyvisible --name '^stackrace$' | head -n1)"
xdotool windowfocus --sync "$wid" || true
sleep 0.5
# No public rooms (ladder games are private): the focus starts on Create room; Down reaches Replays on this server,
# Right the Contest ladder beside it.
keys Down Right Return
expect_both "screen: contest ladder" "ladder: [0-9]+ entrants shown"

# A damaged old secret file is an error on the screen and is left as it is.
secret="$work/config/ladder/player.secret"
mkdir -p "$work/config/ladder"
echo "damaged" >"$secret"
keys Return  # Play (the focus starts there)
expect "ladder: the ladder secret file .*player\\.secret does not hold a secret"
[ "$(cat "$secret")" = damaged ] || { echo "the damaged secret file was written over"; exit 1; }
rm "$secret"

# Play again: a ranked game as the player name (held by the game's key), alone in a room the server starts at once.
keys Return
expect "ladder: entered as player \(ranked\)"
expect "race [0-9]+ countdown"
expect "screen: race"
sleep 3.5  # the countdown
for _ in 1 2 3; do xdotool key space; sleep 0.15; done
keys Escape Down Return  # leave the race? Keep racing, [Leave the room]
expect "left the race \(forfeited\)"
expect "ladder: left the game of player"
expect_both "screen: contest ladder" "ladder: [0-9]+ entrants shown"

# Another key cannot spend rocket's games: the refusal is said in the server's words. From Play, Up Up reaches the
# entrant name; Enter edits it (select all, type, Enter), Down Down comes back to Play.
keys Up Up Return ctrl+a r o c k e t Return Down Down Return
expect "ladder: entering as rocket \(ranked\)"
expect "ladder: game refused: entrant 'rocket' is held by another player's key"

# The bot's game ends about 35 s after it started.
wait_for "$work/bot.log" "is ranked" 90 || { cat "$work/bot.log"; exit 1; }
wait $botpid || { echo "the bot failed"; cat "$work/bot.log"; exit 1; }
cat "$work/bot.log"
keys Right Return  # Refresh
expect "ladder: 2 entrants shown"
xdotool key F12
expect "screenshot written"
keys Down Return  # the first row's Watch: rocket's best game
expect "ladder: watching game [0-9a-f]{16}"
expect "viewing downloaded game [0-9a-f]{16}: verified"
expect "screen: replay viewer"
keys Escape
expect "screen: contest ladder"
keys Escape
expect "screen: lobby"
kill -TERM $pid
rc=0; wait $pid || rc=$?
cat "$log"
[ "$rc" -eq 0 ] || { echo "stackrace exited with $rc"; exit 1; }

# The watched game was rocket's.
watched="$(sed -n 's/.*ladder: watching game \([0-9a-f]*\).*/\1/p' "$log" | head -n1)"
grep -q "replay $watched" "$work/bot.log" || { echo "watched $watched, not the bot's game"; exit 1; }

# The server's leaderboard: rocket first, the player's forfeited ranked game spent.
board="$("$bot" --server "127.0.0.1:$port" --leaderboard --timeout 20)"
echo "$board"
grep -Eq "^ +1  rocket +1/10 " <<<"$board" || { echo "rocket should be first with 1/10"; exit 1; }
grep -Eq "^ +2  player +1/10 " <<<"$board" || { echo "player should be second with 1/10"; exit 1; }

# The game's player key: under --config-dir, owner only, its seed as 64 hexadecimal digits; no secret file was made;
# the game's own race kept as a replay.
key="$work/config/player.key"
[ "$(stat -c %a "$key")" = 600 ] || { echo "the player key file should be mode 600"; exit 1; }
grep -Eqx "stackrace-key 1 [0-9a-f]{64}" "$key" || { echo "the player key file should hold a key"; exit 1; }
[ ! -e "$secret" ] || { echo "the game made a ladder secret file"; exit 1; }
shopt -s nullglob
local_files=("$work/data/replays/"*.srr)
[ "${#local_files[@]}" -eq 1 ] || { echo "expected our ladder game as one local replay, found ${#local_files[@]}"; exit 1; }
echo "contest ladder test passed"
