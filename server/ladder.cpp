#include "server/ladder.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "net/identity/player_key.h"

namespace sr::server {

Ladder::Ladder(LadderOptions options) : options_(std::move(options)) {
  LadderRules& r = options_.rules;
  r.ranked_games = std::clamp(r.ranked_games, 1, static_cast<int>(protocol::kMaxLadderRankedGames));
  r.counted_best =
      std::clamp(r.counted_best, 1, std::min(r.ranked_games, static_cast<int>(protocol::kMaxLadderCountedBest)));
}

sr::Status<std::string> Ladder::open(const std::filesystem::path& file) {
  if (auto opened = store_.open(file); !opened) return opened.error();
  auto loaded = store_.load();
  if (!loaded.ok()) return "cannot read " + file.string() + ": " + loaded.error();
  entrants_ = std::move(loaded.value().entrants);
  games_ = std::move(loaded.value().games);
  practice_games_ = loaded.value().practice_games;
  rerank();
  const auto unscored = std::count_if(games_.begin(), games_.end(), [](const LadderEntry& g) { return !g.scored; });
  spdlog::info(
      "contest ladder: {} entrants, {} ranked games ({} never finished: the server stopped during them) and {} "
      "practice games in {}",
      entrants_.size(), games_.size(), unscored, practice_games_, file.string());
  return {};
}

engine::GameConfig Ladder::contest_config() const {
  engine::GameConfig config = engine::make_contest();
  config.limit_value = options_.contest_seconds;
  return config;
}

sr::Status<std::string> Ladder::check(const std::string& name, const protocol::PublicKeyBytes& holder,
                                      const std::optional<LadderSecret>& legacy_secret, bool ranked,
                                      std::int64_t unix_ms) {
  const std::string key = ladder_key(name);
  const bool known =
      std::any_of(entrants_.begin(), entrants_.end(), [&](const std::string& e) { return ladder_key(e) == key; });
  if (!known && entrants_.size() >= options_.max_entrants) {
    return fmt::format("the ladder is full ({} entrants): enter under a name already on it", options_.max_entrants);
  }
  const auto claimed = store_.claim(name, holder, legacy_secret, unix_ms);
  if (!claimed.ok()) {
    spdlog::error("contest ladder: cannot check entrant '{}': {}", name, claimed.error());
    return std::string("the server could not read its ladder: try again later");
  }
  if (claimed.value() == LadderStore::Claim::kOtherKey) {
    return fmt::format("entrant '{}' is held by another player's key (pick another name)", name);
  }
  if (claimed.value() == LadderStore::Claim::kNeedsSecret) {
    return fmt::format(
        "entrant '{}' is held by a ladder secret from before player keys: enter once with its secret file, and it "
        "passes to your key",
        name);
  }
  if (claimed.value() == LadderStore::Claim::kPassed) {
    spdlog::info("contest ladder: entrant '{}' passed from its secret to key {}", name, net::short_key_id(holder));
  }
  if (claimed.value() == LadderStore::Claim::kNew) {
    entrants_.push_back(name);
    rerank();
    spdlog::info("contest ladder: new entrant '{}'", name);
  }
  if (!ranked) return {};
  const auto played =
      std::count_if(games_.begin(), games_.end(), [&](const LadderEntry& g) { return ladder_key(g.entrant) == key; });
  if (played >= options_.rules.ranked_games) {
    return fmt::format("entrant '{}' has played its {} ranked games (practice games are unlimited)", name,
                       options_.rules.ranked_games);
  }
  return {};
}

sr::Status<std::string> Ladder::start(const std::string& name, bool ranked, RoomId room, std::uint32_t race_id,
                                      std::int64_t unix_ms) {
  const auto seq = store_.add_game(name, ranked, unix_ms);
  if (!seq.ok()) {
    spdlog::error("contest ladder: cannot record a game of '{}': {}", name, seq.error());
    return std::string("the server could not record the game: try again later");
  }
  running_[{room, race_id}] = Running{seq.value(), ranked, false, ranked ? std::string() : name};
  if (ranked) {
    LadderEntry e;
    e.seq = seq.value();
    e.entrant = name;
    games_.push_back(std::move(e));
    rerank();
  } else {
    ++practice_games_;
  }
  spdlog::info("contest ladder: '{}' starts {} game {} (room {} race {})", name, ranked ? "ranked" : "practice",
               seq.value(), room, race_id);
  return {};
}

LadderEntry* Ladder::entry(std::int64_t seq) {
  const auto it = std::lower_bound(games_.begin(), games_.end(), seq,
                                   [](const LadderEntry& g, std::int64_t s) { return g.seq < s; });
  return it != games_.end() && it->seq == seq ? &*it : nullptr;
}

void Ladder::race_ended(RoomId room, const protocol::RaceResults& results) {
  const auto it = running_.find({room, results.race_id});
  if (it == running_.end() || it->second.scored || results.racers.empty()) return;
  Running& run = it->second;
  LadderEntry* e = run.ranked ? entry(run.seq) : nullptr;
  if (run.ranked && e == nullptr) return;
  const protocol::RacerResult& r = results.racers.front();  // the room's only racer
  const std::int64_t score = r.status == protocol::RacerStatus::kRemoved ? 0 : std::max<std::int64_t>(0, r.score);
  const std::int64_t lines = std::max<std::int64_t>(0, r.lines);
  run.scored = true;
  if (auto saved = store_.set_result(run.seq, score, lines); !saved) {
    spdlog::error("contest ladder: cannot record the score of game {}: {}", run.seq, saved.error());
  }
  spdlog::info("contest ladder: '{}' {} game {}: {} points, {} lines", e != nullptr ? e->entrant : run.entrant,
               run.ranked ? "ranked" : "practice", run.seq, score, lines);
  if (e == nullptr) return;  // practice counts nowhere
  e->scored = true;
  e->score = score;
  e->lines = lines;
  rerank();
}

void Ladder::replay_written(RoomId room, std::uint32_t race_id, std::optional<std::uint64_t> game_id) {
  const auto it = running_.find({room, race_id});
  if (it == running_.end()) return;
  const std::int64_t seq = it->second.seq;
  const bool ranked = it->second.ranked;
  running_.erase(it);
  if (!game_id) return;
  if (auto saved = store_.set_replay(seq, *game_id); !saved) {
    spdlog::error("contest ladder: cannot record the replay of game {}: {}", seq, saved.error());
  }
  LadderEntry* e = ranked ? entry(seq) : nullptr;
  if (e == nullptr) return;
  e->game_id = *game_id;
  rerank();
}

std::size_t Ladder::games_in_memory() const {
  const auto practice_running =
      std::count_if(running_.begin(), running_.end(), [](const auto& r) { return !r.second.ranked; });
  return games_.size() + static_cast<std::size_t>(practice_running);
}

void Ladder::rerank() { standings_ = rank_ladder(entrants_, games_, options_.rules); }

protocol::Ladder Ladder::board() const { return ladder_message(standings_, options_.rules); }

LadderStats Ladder::stats() const {
  LadderStats s;
  s.entrants = standings_.size();
  s.counted_best = options_.rules.counted_best;
  s.ranked_games = games_.size();
  s.practice_games = practice_games_;
  for (const LadderStanding& st : standings_) {
    if (s.top.size() >= kTopInMetrics) break;
    s.top.emplace_back(st.entrant, st.best_sum);
  }
  return s;
}

}  // namespace sr::server
