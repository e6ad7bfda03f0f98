// The contest ladder (PROTOCOL.md "Contest ladder"): named entrants play contest games alone, each ranked game spent
// when its countdown starts, scored by the server's own referee, and kept with its stored replay. The lobby asks it
// whether an entrant may play, tells it when a game starts, ends and is stored, and asks it for the leaderboard.
// The games live in a LadderStore (ladder.sqlite), with a copy of the ranked ones in memory for the leaderboard
// (at most max_entrants x ranked_games); practice games are unlimited, so only their number and the ones being played
// are kept. Main loop only; reads no clock (times are passed in).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/engine/config.h"
#include "common/protocol/messages.h"
#include "common/result.h"
#include "server/ladder_ranking.h"
#include "server/ladder_store.h"
#include "server/player.h"

namespace sr::server {

struct LadderOptions {
  bool enabled = false;  // without it LadderEnter is refused ("this server runs no contest ladder")
  LadderRules rules;
  // The contest's length. The ranked rules are 90 s (engine::make_contest()); only tests shorten it.
  std::int64_t contest_seconds = 90;
  // Most entrants: a new name beyond it is refused (each name is a row kept for good; the join rate bounds how fast
  // one address can make them, this bounds them all).
  std::size_t max_entrants = 10'000;
};

// What the metrics show of the ladder.
struct LadderStats {
  std::size_t entrants = 0;
  std::uint64_t ranked_games = 0;
  std::uint64_t practice_games = 0;
  // The top entrants (at most kTopInMetrics) and their rank score's sum (average = sum / counted_best).
  std::vector<std::pair<std::string, std::int64_t>> top;
  int counted_best = 3;
};

class Ladder {
 public:
  static constexpr std::size_t kTopInMetrics = 10;

  // The rules are brought within the protocol's limits: ranked_games 1..kMaxLadderRankedGames, counted_best
  // 1..min(ranked_games, kMaxLadderCountedBest).
  explicit Ladder(LadderOptions options);

  // Opens (creating) the store and reads it. Ok, or a sentence naming the problem.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& file);

  // The rules every ladder game is played with: engine::make_contest() (LadderOptions::contest_seconds long).
  [[nodiscard]] engine::GameConfig contest_config() const;
  [[nodiscard]] const LadderRules& rules() const { return options_.rules; }

  // May `name`, for the player holding key `holder`, play a game (ranked or not)? Claims a free name for the key (or,
  // with the old secret that holds it, an entrant from before player keys). Ok, or the sentence the player is told
  // ("entrant 'x' has played its 10 ranked games").
  [[nodiscard]] sr::Status<std::string> check(const std::string& name, const protocol::PublicKeyBytes& holder,
                                              const std::optional<LadderSecret>& legacy_secret, bool ranked,
                                              std::int64_t unix_ms);
  // The game's countdown starts in room `room`, race `race_id`: a ranked game is spent from now on. Ok, or why it
  // could not be recorded (the disk; the game must then not start).
  [[nodiscard]] sr::Status<std::string> start(const std::string& name, bool ranked, RoomId room, std::uint32_t race_id,
                                              std::int64_t unix_ms);
  // Any race ended, with the referee's results: a ladder game's score is recorded (a racer the referee removed
  // scores 0). Not a ladder race: nothing.
  void race_ended(RoomId room, const protocol::RaceResults& results);
  // Any race's replay was stored (game_id) or not (nullopt).
  void replay_written(RoomId room, std::uint32_t race_id, std::optional<std::uint64_t> game_id);

  // The leaderboard message (ListLadder's answer).
  [[nodiscard]] protocol::Ladder board() const;
  [[nodiscard]] LadderStats stats() const;
  [[nodiscard]] const std::vector<LadderStanding>& standings() const { return standings_; }
  // Games held in memory: the ranked ones and the practice games being played (tests: practice does not grow it).
  [[nodiscard]] std::size_t games_in_memory() const;

 private:
  struct Running {
    std::int64_t seq = 0;
    bool ranked = true;
    bool scored = false;
    std::string entrant;  // for the log lines of a practice game (ranked ones are in games_)
  };
  [[nodiscard]] LadderEntry* entry(std::int64_t seq);
  void rerank();

  LadderOptions options_;
  LadderStore store_;
  std::vector<std::string> entrants_;
  std::vector<LadderEntry> games_;  // the ranked games, in sequence order
  std::uint64_t practice_games_ = 0;
  std::vector<LadderStanding> standings_;
  std::map<std::pair<RoomId, std::uint32_t>, Running> running_;  // ladder races not yet stored, by room and race
};

}  // namespace sr::server
