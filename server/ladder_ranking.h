// The contest ladder's ranking rule, on its own: who is ahead, from every ladder game played. Pure (no clock, no
// files): the server's Ladder feeds it what its store holds, and tests feed it exact values.
//
// # The rule
// Each entrant may play LadderRules::ranked_games ranked games. Their rank score is the average of their
// `counted_best` best ranked scores, a game not played counting 0 (so the sum of those scores decides). Equal sums
// go to the entrant who reached the sum first (the smaller game sequence number completing it), then by name.
// Among equal scores, the earlier game is the one counted. Practice games count nowhere.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "common/protocol/messages.h"

namespace sr::server {

struct LadderRules {
  int ranked_games = 10;  // 1..protocol::kMaxLadderRankedGames per entrant
  int counted_best = 3;   // 1..min(ranked_games, protocol::kMaxLadderCountedBest)
};

// One ladder game as the store holds it.
struct LadderEntry {
  std::int64_t seq = 0;  // >= 1: the order games started in (the store's row id); earlier is smaller
  std::string entrant;   // as the entrant first wrote it
  bool ranked = true;
  // The race ended and the referee's result is in. A game whose race has not ended yet (or never will: the server
  // stopped during it) is played and spent, but has no score.
  bool scored = false;
  std::int64_t score = 0;     // >= 0, the referee's
  std::int64_t lines = 0;     // >= 0
  std::uint64_t game_id = 0;  // the stored replay; 0 until it is stored (or if it never was)
};

// One entrant's place on the ladder.
struct LadderStanding {
  std::string entrant;
  int ranked_played = 0;
  int practice_played = 0;
  std::vector<protocol::LadderGame> best;  // the counted games, best first (at most counted_best)
  std::int64_t best_sum = 0;               // sum of best's scores
  // Sequence number of the game that completed best_sum (tie-break: smaller first); max() with no scored game.
  std::int64_t reached_seq = std::numeric_limits<std::int64_t>::max();
};

// Every entrant (those in `entrants`, with or without games, and anyone named by a game), best first. Names are
// compared ignoring ASCII case; an entrant's name is spelled as in `entrants`, or as in its first game.
[[nodiscard]] std::vector<LadderStanding> rank_ladder(std::span<const std::string> entrants,
                                                      std::span<const LadderEntry> games, const LadderRules& rules);

// The leaderboard message: the first protocol::kMaxLadderRows standings.
[[nodiscard]] protocol::Ladder ladder_message(const std::vector<LadderStanding>& standings, const LadderRules& rules);

// Names compared ignoring ASCII case (player names are printable ASCII).
[[nodiscard]] std::string ladder_key(const std::string& name);

}  // namespace sr::server
