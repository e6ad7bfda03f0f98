#include "server/ladder_ranking.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace sr::server {

std::string ladder_key(const std::string& name) {
  std::string key = name;
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

std::vector<LadderStanding> rank_ladder(std::span<const std::string> entrants, std::span<const LadderEntry> games,
                                        const LadderRules& rules) {
  std::map<std::string, LadderStanding> by_key;
  std::map<std::string, std::vector<const LadderEntry*>> scored;
  for (const std::string& name : entrants) by_key[ladder_key(name)].entrant = name;
  for (const LadderEntry& g : games) {
    LadderStanding& s = by_key[ladder_key(g.entrant)];
    if (s.entrant.empty()) s.entrant = g.entrant;
    if (!g.ranked) {
      ++s.practice_played;
      continue;
    }
    ++s.ranked_played;
    if (g.scored) scored[ladder_key(g.entrant)].push_back(&g);
  }
  std::vector<LadderStanding> out;
  out.reserve(by_key.size());
  for (auto& [key, s] : by_key) {
    auto& mine = scored[key];
    // Best first; among equal scores the earlier game, so that the sum is reached as early as it could be.
    std::sort(mine.begin(), mine.end(), [](const LadderEntry* a, const LadderEntry* b) {
      return a->score != b->score ? a->score > b->score : a->seq < b->seq;
    });
    const std::size_t counted = std::min(mine.size(), static_cast<std::size_t>(std::max(rules.counted_best, 0)));
    for (std::size_t i = 0; i < counted; ++i) {
      s.best.push_back(protocol::LadderGame{mine[i]->game_id, mine[i]->score, mine[i]->lines});
      s.best_sum += mine[i]->score;
      s.reached_seq = i == 0 ? mine[i]->seq : std::max(s.reached_seq, mine[i]->seq);
    }
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [](const LadderStanding& a, const LadderStanding& b) {
    if (a.best_sum != b.best_sum) return a.best_sum > b.best_sum;
    if (a.reached_seq != b.reached_seq) return a.reached_seq < b.reached_seq;
    // Still equal (no scored game on either side): whoever has played more ranked games, so that an entrant whose
    // first ranked game is in progress is not ranked below one who has played none.
    if (a.ranked_played != b.ranked_played) return a.ranked_played > b.ranked_played;
    return ladder_key(a.entrant) < ladder_key(b.entrant);
  });
  return out;
}

protocol::Ladder ladder_message(const std::vector<LadderStanding>& standings, const LadderRules& rules) {
  protocol::Ladder m;
  m.ranked_games = static_cast<std::uint8_t>(rules.ranked_games);
  m.counted_best = static_cast<std::uint8_t>(rules.counted_best);
  m.entrants = static_cast<std::uint32_t>(standings.size());
  for (const LadderStanding& s : standings) {
    if (m.rows.size() >= protocol::kMaxLadderRows) break;
    // A store that outgrew the rules (a restart with fewer ranked games) still makes a valid message.
    const auto played = std::min(s.ranked_played, rules.ranked_games);
    protocol::LadderRow row{s.entrant, static_cast<std::uint8_t>(played), s.best};
    if (row.best.size() > static_cast<std::size_t>(played)) row.best.resize(static_cast<std::size_t>(played));
    m.rows.push_back(std::move(row));
  }
  return m;
}

}  // namespace sr::server
