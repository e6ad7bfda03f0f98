#include "server/ladder.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "net/identity/player_key.h"

namespace sr::server {
namespace {

std::string full_sentence(std::size_t max_entrants) {
  return fmt::format("the ladder is full ({} entrants): enter under a name already on it", max_entrants);
}
std::string other_key_sentence(const std::string& name) {
  return fmt::format("entrant '{}' is held by another player's key (pick another name)", name);
}
std::string spent_sentence(const std::string& name, int ranked_games) {
  return fmt::format("entrant '{}' has played its {} ranked games (practice games are unlimited)", name, ranked_games);
}

}  // namespace

Ladder::~Ladder() { stop(); }

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
  where_ = file.string();
  const auto unscored = std::count_if(games_.begin(), games_.end(), [](const LadderEntry& g) { return !g.scored; });
  spdlog::info(
      "contest ladder: {} entrants, {} ranked games ({} never finished: the server stopped during them) and {} "
      "practice games in {}",
      entrants_.size(), games_.size(), unscored, practice_games_, where_);
  return {};
}

sr::Status<std::string> Ladder::open_database(const std::string& uri, const std::string& server_name) {
  if (auto opened = pg_.open(uri, kQueryWaitMs); !opened) return opened;
  pg_.set_server_name(server_name);
  where_ = "the database at " + pg_.describe();
  auto loaded = pg_.load();
  if (!loaded.ok()) return "cannot read the contest ladder in " + where_ + ": " + loaded.error();
  entrants_ = std::move(loaded.value().entrants);
  games_ = std::move(loaded.value().games);
  practice_games_ = loaded.value().practice_games;
  rerank();
  spdlog::info("contest ladder: {} entrants, {} ranked games and {} practice games in {} (shared by its servers)",
               entrants_.size(), games_.size(), practice_games_, where_);
  worker_ = std::thread([this] { work(); });
  return {};
}

void Ladder::count_store_error() {
  std::lock_guard lock(mutex_);
  ++store_errors_;
}

void Ladder::queue(Job job) {
  const bool write = !std::holds_alternative<RefreshJob>(job);
  std::lock_guard lock(mutex_);
  const std::uint64_t tag = next_tag_++;
  if (write) last_write_tag_ = tag;
  if (auto* enter = std::get_if<EnterJob>(&job)) enter->asked.job = tag;
  jobs_.emplace_back(tag, std::move(job));
  wake_.notify_one();
}

void Ladder::request_enter(PlayerId player, const std::string& name, const protocol::PublicKeyBytes& holder,
                           bool ranked, std::int64_t unix_ms) {
  EnterJob job{LadderEntered{player, name, ranked, std::nullopt, 0, false, 0}, holder, unix_ms};
  {
    std::lock_guard lock(mutex_);
    if (jobs_.size() + retry_.size() >= kMaxPending) {
      job.asked.refused = "the server's ladder is busy: try again in a moment";
      answers_.push_back(std::move(job.asked));
      return;
    }
  }
  queue(std::move(job));
}

void Ladder::refresh() {
  {
    std::lock_guard lock(mutex_);
    if (refresh_queued_ || !worker_.joinable()) return;
    refresh_queued_ = true;
  }
  queue(RefreshJob{});
}

std::size_t Ladder::pending() const {
  std::lock_guard lock(mutex_);
  return jobs_.size() + retry_.size() + (busy_ ? 1 : 0);
}

void Ladder::stop() {
  if (!worker_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_one();
  }
  worker_.join();
  std::lock_guard lock(mutex_);
  if (!retry_.empty() || !jobs_.empty()) {
    spdlog::error("contest ladder: {} scores or replays were not written to {} before the server stopped",
                  retry_.size() + jobs_.size(), where_);
  }
}

std::string Ladder::refusal(PgLadderStore::Outcome outcome, const std::string& name) const {
  switch (outcome) {
    case PgLadderStore::Outcome::kFull: return full_sentence(options_.max_entrants);
    case PgLadderStore::Outcome::kOtherKey: return other_key_sentence(name);
    case PgLadderStore::Outcome::kSpent: return spent_sentence(name, options_.rules.ranked_games);
    case PgLadderStore::Outcome::kAdmitted: break;
  }
  return {};
}

sr::Status<std::string> Ladder::write(PgLadderStore& store, const Job& job) {
  if (const auto* r = std::get_if<ResultJob>(&job)) return store.set_result(r->seq, r->score, r->lines);
  if (const auto* r = std::get_if<ReplayJob>(&job)) return store.set_replay(r->seq, r->game_id);
  if (const auto* c = std::get_if<CancelJob>(&job)) return store.cancel(c->seq);
  return {};
}

void Ladder::work() {
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_retry{};
  std::optional<Clock::time_point> stop_by;
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait_for(lock, std::chrono::seconds(1), [&] { return stopping_ || !jobs_.empty(); });
    if (stopping_ && !stop_by) stop_by = Clock::now() + std::chrono::milliseconds(kStopWaitMs);
    // The writes the database refused go first, in order, at most once a second.
    if (!retry_.empty() && Clock::now() - last_retry >= std::chrono::seconds(1)) {
      last_retry = Clock::now();
      while (!retry_.empty()) {
        busy_ = true;
        const Job job = retry_.front().second;
        lock.unlock();
        const auto written = write(pg_, job);
        lock.lock();
        busy_ = false;
        if (!written) break;
        retry_.pop_front();
        if (retry_.empty()) spdlog::info("contest ladder: the writes that waited are in {} now", where_);
      }
    }
    if (stopping_ && (jobs_.empty() || Clock::now() >= *stop_by) && (retry_.empty() || Clock::now() >= *stop_by)) {
      break;
    }
    if (jobs_.empty()) {
      if (stopping_) wake_.wait_for(lock, std::chrono::milliseconds(100));
      continue;
    }
    auto [tag, job] = std::move(jobs_.front());
    jobs_.pop_front();
    if (std::holds_alternative<RefreshJob>(job)) refresh_queued_ = false;
    if (!std::holds_alternative<EnterJob>(job) && !std::holds_alternative<RefreshJob>(job) && !retry_.empty()) {
      retry_.emplace_back(tag, std::move(job));  // behind the ones waiting: in order
      continue;
    }
    if (stopping_ && std::holds_alternative<EnterJob>(job)) continue;  // nobody is left to start it
    busy_ = true;
    lock.unlock();
    std::optional<LadderEntered> answer;
    std::optional<Loaded> loaded;
    bool failed_write = false;
    if (auto* enter = std::get_if<EnterJob>(&job)) {
      LadderEntered& a = enter->asked;
      const PgLadderStore::Limits limits{options_.max_entrants, options_.rules.ranked_games};
      auto entered = pg_.enter(a.entrant, enter->holder, a.ranked, enter->unix_ms, limits);
      if (!entered.ok()) {
        spdlog::error("contest ladder: cannot enter '{}' in {}: {}", a.entrant, where_, entered.error());
        count_store_error();
        a.refused = "the server could not reach its ladder: try again later";
      } else if (entered.value().outcome != PgLadderStore::Outcome::kAdmitted) {
        a.refused = refusal(entered.value().outcome, a.entrant);
      } else {
        a.seq = entered.value().seq;
        a.new_entrant = entered.value().new_entrant;
      }
      answer = std::move(a);
    } else if (std::holds_alternative<RefreshJob>(job)) {
      auto contents = pg_.load();
      if (contents.ok()) {
        loaded = Loaded{tag, std::move(contents).value()};
      } else {
        spdlog::warn("contest ladder: cannot read {} again: {}", where_, contents.error());
      }
    } else if (auto written = write(pg_, job); !written) {
      spdlog::error("contest ladder: cannot write to {} (tried again every second): {}", where_, written.error());
      count_store_error();
      failed_write = true;
    }
    lock.lock();
    busy_ = false;
    if (answer) answers_.push_back(std::move(*answer));
    // A refresh read while writes wait for the database lacks them: the board keeps what it has.
    if (loaded && retry_.empty()) loaded_ = std::move(loaded);
    if (failed_write) {
      retry_.emplace_front(tag, std::move(job));
      last_retry = Clock::now();
    }
  }
}

std::vector<LadderEntered> Ladder::collect() {
  std::vector<LadderEntered> answers;
  std::optional<Loaded> loaded;
  {
    std::lock_guard lock(mutex_);
    answers.swap(answers_);
    loaded.swap(loaded_);
  }
  std::uint64_t applied = 0;
  if (loaded && loaded->tag > last_write_tag_) {
    entrants_ = std::move(loaded->contents.entrants);
    games_ = std::move(loaded->contents.games);
    practice_games_ = loaded->contents.practice_games;
    applied = loaded->tag;
  }
  bool changed = applied != 0;
  for (const LadderEntered& a : answers) {
    if (a.refused || a.job < applied) continue;  // refused, or in the database's ladder just read
    if (a.new_entrant) {
      spdlog::info("contest ladder: new entrant '{}'", a.entrant);
      const std::string key = ladder_key(a.entrant);
      if (std::none_of(entrants_.begin(), entrants_.end(), [&](const std::string& e) { return ladder_key(e) == key; }))
        entrants_.push_back(a.entrant);
    }
    if (a.ranked) {
      LadderEntry e;
      e.seq = a.seq;
      e.entrant = a.entrant;
      const auto at = std::upper_bound(games_.begin(), games_.end(), a.seq,
                                       [](std::int64_t s, const LadderEntry& g) { return s < g.seq; });
      games_.insert(at, std::move(e));
    } else {
      ++practice_games_;
    }
    changed = true;
  }
  if (changed) rerank();
  return answers;
}

void Ladder::started(const LadderEntered& entered, RoomId room, std::uint32_t race_id) {
  running_[{room, race_id}] =
      Running{entered.seq, entered.ranked, false, entered.ranked ? std::string() : entered.entrant};
  spdlog::info("contest ladder: '{}' starts {} game {} (room {} race {})", entered.entrant,
               entered.ranked ? "ranked" : "practice", entered.seq, room, race_id);
}

void Ladder::cancel(const LadderEntered& entered) {
  if (entered.refused) return;
  queue(CancelJob{entered.seq});
  if (!entered.ranked) {
    if (practice_games_ > 0) --practice_games_;
    return;
  }
  const auto it =
      std::find_if(games_.begin(), games_.end(), [&](const LadderEntry& g) { return g.seq == entered.seq; });
  if (it == games_.end()) return;
  games_.erase(it);
  rerank();
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
    return full_sentence(options_.max_entrants);
  }
  const auto claimed = store_.claim(name, holder, legacy_secret, unix_ms);
  if (!claimed.ok()) {
    spdlog::error("contest ladder: cannot check entrant '{}': {}", name, claimed.error());
    count_store_error();
    return std::string("the server could not read its ladder: try again later");
  }
  if (claimed.value() == LadderStore::Claim::kOtherKey) {
    return other_key_sentence(name);
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
    return spent_sentence(name, options_.rules.ranked_games);
  }
  return {};
}

sr::Status<std::string> Ladder::start(const std::string& name, bool ranked, RoomId room, std::uint32_t race_id,
                                      std::int64_t unix_ms) {
  const auto seq = store_.add_game(name, ranked, unix_ms);
  if (!seq.ok()) {
    spdlog::error("contest ladder: cannot record a game of '{}': {}", name, seq.error());
    count_store_error();
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
  if (asynchronous()) {
    queue(ResultJob{run.seq, score, lines});
  } else if (auto saved = store_.set_result(run.seq, score, lines); !saved) {
    spdlog::error("contest ladder: cannot record the score of game {}: {}", run.seq, saved.error());
    count_store_error();
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
  if (asynchronous()) {
    queue(ReplayJob{seq, *game_id});
  } else if (auto saved = store_.set_replay(seq, *game_id); !saved) {
    spdlog::error("contest ladder: cannot record the replay of game {}: {}", seq, saved.error());
    count_store_error();
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
  s.writes_pending = pending();
  {
    std::lock_guard lock(mutex_);
    s.store_errors = store_errors_;
  }
  for (const LadderStanding& st : standings_) {
    if (s.top.size() >= kTopInMetrics) break;
    s.top.emplace_back(st.entrant, st.best_sum);
  }
  return s;
}

}  // namespace sr::server
