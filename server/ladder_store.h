// The contest ladder on disk: `ladder.sqlite` in the server's data directory, holding the entrants (each name with the
// player key that holds it, or, for an entrant claimed before player keys, a salted hash of its secret, never the
// secret) and every ladder game (entrant, ranked or practice, the
// referee's score and lines, the stored replay's id, when it started). SQLite with synchronous = FULL: a game is
// spent on the disk before its countdown is sent. Used from the server's main loop only.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "replays/store/sqlite_db.h"
#include "server/ladder_ranking.h"

namespace sr::server {

using protocol::LadderSecret;

class LadderStore {
 public:
  // Opens (creating if needed) the database. Ok, or a sentence naming the file and the problem.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& file);

  enum class Claim : std::uint8_t {
    kNew,          // the name was free: it is now held by this key
    kHeld,         // the name is held by this key
    kPassed,       // the name was held by a secret from before keys, shown here: it is held by this key now
    kOtherKey,     // the name is held by another key
    kNeedsSecret,  // the name is held by a secret from before keys, not shown (or not the right one)
  };
  // Checks `key` against the one holding `name` (ignoring case), claiming the name if it is free. An entrant held by
  // an old secret passes to the first key that shows that secret (`legacy_secret`).
  [[nodiscard]] sr::Result<Claim, std::string> claim(const std::string& name, const protocol::PublicKeyBytes& key,
                                                     const std::optional<LadderSecret>& legacy_secret,
                                                     std::int64_t unix_ms);
  // A game of `entrant` (a claimed name) starts: returns its sequence number (>= 1).
  [[nodiscard]] sr::Result<std::int64_t, std::string> add_game(const std::string& entrant, bool ranked,
                                                               std::int64_t unix_ms);
  // The game's race ended: the referee's score and lines.
  [[nodiscard]] sr::Status<std::string> set_result(std::int64_t seq, std::int64_t score, std::int64_t lines);
  // The game's replay is stored under game_id.
  [[nodiscard]] sr::Status<std::string> set_replay(std::int64_t seq, std::uint64_t game_id);

  // What the leaderboard needs: every entrant and every ranked game. Practice games count nowhere, so only their
  // number is read (they stay on the disk: unlimited practice must not grow the server's memory).
  struct Contents {
    std::vector<std::string> entrants;  // as first written, in the order they were claimed
    std::vector<LadderEntry> games;     // the ranked games, in sequence order
    std::uint64_t practice_games = 0;
  };
  [[nodiscard]] sr::Result<Contents, std::string> load();

 private:
  replay::sqlite::Db db_;
  std::filesystem::path file_;
};

}  // namespace sr::server
