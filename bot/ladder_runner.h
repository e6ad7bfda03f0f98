// `stackrace-bot --server HOST:PORT --ladder NAME`: plays contest ladder games as entrant NAME (PROTOCOL.md "Contest
// ladder"), one after another, each alone in the room the server makes for it; and `--leaderboard`: prints the
// server's leaderboard as a table. Both use one net/ Session, as the game does.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "bot/tbp_session.h"
#include "common/bot/bot.h"
#include "common/protocol/messages.h"
#include "net/identity/player_key.h"

namespace sr::botcli {

struct LadderRunOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7878;
  std::string entrant;                // kPlayerNameText; also the connection's player name
  bool ranked = true;                 // false: practice games, unlimited and unranked
  std::optional<int> games;           // nullopt: ranked until the server says the entrant's games are spent; practice 1
  std::optional<net::PlayerKey> key;  // holds the entrant (nullopt: a key for this run alone)
  // An entrant's secret from before player keys (ladder_secret.h): sent when the file exists, so that the entrant
  // passes to `key`; never made.
  std::filesystem::path secret_file;
  bot::BotSettings bot;                     // the built-in bot; with `external`, only its key timing and pace are used
  std::optional<ExternalOptions> external;  // a TBP bot chooses the placements instead (external_player.h)
  int timeout_s = 600;                      // per game, from entering to the stored replay
};

// Plays the games and prints a line per game and the entrant's standing at the end. Returns 0 when every game asked
// for was played (without --games: at least one, until the server refused another), 1 when the server refused the
// first game or a game failed, 2 when the server could not be reached or the old secret file not read.
//
// With `external`, the TBP bot is started (and must answer its handshake) before the server is contacted. A game it
// forfeits (no suggested move reachable, or no answer within answer_ms) is still played to its end and scored by the
// server; a line after its game line says why, and the run goes on (exit status 0). A bot that dies or breaks the
// protocol ends the run with 1 (the game under way is spent). A line at the end counts its suggestions and forfeits.
int run_ladder(const LadderRunOptions& options, std::ostream& out, std::ostream& err);

// The leaderboard as an aligned table: rank, entrant, ranked games played, rank score (average of the best, a game
// not played counting 0), and the best scores with their replays' game ids (stackrace-replay and the game's replay
// browser take them). Pure: the caller prints it.
[[nodiscard]] std::string leaderboard_table(const protocol::Ladder& ladder);

// Asks the server for its leaderboard and prints leaderboard_table(). 0 on success, 1 when the server refuses (no
// ladder there: the reason goes to `err`), 2 when it cannot be reached.
int print_leaderboard(const std::string& host, std::uint16_t port, int timeout_s, std::ostream& out, std::ostream& err);

}  // namespace sr::botcli
